//===- VectorizePaddedPacks.h - partial-tile packs vectorized ---*- C++ -*-===//
//
// A pack tiled by a size that does not divide its source (a prompt of 17
// tokens in blocks of 6) reads a source tile of dynamic size into a
// destination tile of static size, the missing rows filled with its padding
// value. Vectorized without vector sizes it is refused, and bufferized it
// became scalar loops with a copy call per tile. With the destination's
// static shape as the vector sizes, upstream's vectorizer reads the source
// under a mask (the masked lanes take the padding value) and writes the
// whole tile.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_VECTORIZEPADDEDPACKS_H
#define QFORGE_REWRITES_VECTORIZEPADDEDPACKS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// The vector sizes that vectorize `pack` as one masked read and one write:
/// its destination's shape. Fails (analysis only) when the destination is
/// not static, the pack has no padding value while its source is dynamic,
/// or upstream's vectorizer refuses those sizes.
mlir::FailureOr<llvm::SmallVector<int64_t>>
getPaddedPackVectorSizes(mlir::linalg::PackOp pack);

/// Vectorizes `pack` with `vectorSizes` (getPaddedPackVectorSizes) and
/// replaces it.
mlir::LogicalResult vectorizePaddedPack(mlir::RewriterBase &rewriter,
                                        mlir::linalg::PackOp pack,
                                        llvm::ArrayRef<int64_t> vectorSizes);

} // namespace qforge

#endif // QFORGE_REWRITES_VECTORIZEPADDEDPACKS_H
