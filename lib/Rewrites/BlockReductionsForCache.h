//===- BlockReductionsForCache.h - loops for the cache ----------*- C++ -*-===//
//
// The reference (the oracle the bench verifies against) lowers every linalg
// op to scalar loops in the op's own loop order. This rewrite changes that
// order for the cache without changing any value.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_BLOCKREDUCTIONSFORCACHE_H
#define QFORGE_REWRITES_BLOCKREDUCTIONSFORCACHE_H

#include "mlir/IR/Operation.h"

namespace qforge {

/// Blocks the reductions under `root` for the cache: each contraction is
/// tiled by 8 along its parallel dims, and the tile's loops run
/// its reduction dims outside its last parallel dim. Loops of the original
/// order re-read the whole dequantized weight (N x K floats) once per token
/// through one serial add chain per output; tiled, a weight tile stays in
/// cache across the tile's tokens and the innermost loop updates
/// 8 independent outputs. Each output still adds its terms in
/// the original order (the reduction loops keep their order, only parallel
/// dims move), so every result is the same, bit for bit. Only ops whose
/// every output is indexed by every parallel dim are taken (otherwise a
/// parallel dim accumulates into some output too); named ops are
/// generalized first. An op the tiling fails on stays untiled (generalized).
void blockReductionsForCache(mlir::Operation *root);

} // namespace qforge

#endif // QFORGE_REWRITES_BLOCKREDUCTIONSFORCACHE_H
