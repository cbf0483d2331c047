//===- PackPropagation.h - move linalg.pack through a dequant ---*- C++ -*-===//
//
// Data tiling of a group-quantized contraction packs the contraction's
// dequantized weight operand. These patterns move that pack up to the
// quantized parameters (weights, scales, zero-points), so the packing can be
// done once, outside the per-call function, and make every padded lane a
// concrete value that contributes exactly zero
// (docs/ops/QForgeTransformOps.md).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_PACKPROPAGATION_H
#define QFORGE_REWRITES_PACKPROPAGATION_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace qforge {

/// pack(dequant(w, s, z)) -> dequant'(pack(w), pack(s), pack(z)), for an
/// elementwise dequant generic whose inputs are read through projected
/// permutations with constant-0 results on unit (broadcast) dims. A broadcast
/// dim keeps its place in the packed operand: it is tiled by 1 wherever the
/// iteration dim at its position is tiled, and read through 0 in both the
/// outer and the inner part -- e.g. scales 4096x32x1 read through (d0, d1, 0)
/// become 128x32x1x32x1x1 read through (d0, d1, 0, d3, d4, 0) for tiles
/// [32, 1, 128]. Padded operands are padded with zero. Declines with a
/// remark when it cannot show that the packed dequant's padded lanes are what
/// the original pack put there (a concrete padding value it cannot
/// reproduce), or when a zero-padded body could produce a non-finite value.
void populateBubblePackThroughDequantPatterns(
    mlir::RewritePatternSet &patterns);

/// `linalg.pack ... padding_value(ub.poison)` -> the same pack padded with
/// zero. Always legal (a concrete value refines poison); with both operands
/// of a multiply-accumulate contraction zero-padded, padded lanes add exactly
/// zero.
void populatePadPacksWithZerosPatterns(mlir::RewritePatternSet &patterns);

/// A `linalg.pack` that moves no data (every tile one element or a whole
/// dim, non-unit dims in source order) -> collapse_shape + expand_shape.
void populatePackAsReshapePatterns(mlir::RewritePatternSet &patterns);

} // namespace qforge

#endif // QFORGE_REWRITES_PACKPROPAGATION_H
