//===- FactorTwoLevelContraction.h - s·q − o out of the inner sum -*- C++
//-*-===//
//
// The K-quants of llama.cpp (q4_K: docs/gguf.md) dequantize each weight as
// s·q − o, with a scale s and an offset o per sub-block of 32 computed from
// its super-block's fields, and a byte's two nibbles in two sub-blocks. Their
// form (examples/gen_gguf_kernel.py q4_K) keeps the nibble half a group dim
// of its own: the dequantization is an elementwise generic over
// (n, g_1, .., g_r, e), its integer q computed from the weights' bytes (and
// the loop indices), its scale and offset read through (n, g_1, .., g_r);
// the contraction sums over the groups g_i and the elements e. Factored:
//
//   activation_sums:  xs[.., g..] = Σ_l Σ_j x[.., g.., j, l]
//   partial_sums:     p[.., n, g.., l] = Σ_j x[.., g.., j, l] · q(n, g.., j, l)
//   group_sums:       acc[.., n, w.., l] = Σ_g.. s[n, g..] · p
//   offset_sums:      off[.., n, g_2..] = Σ_g_1 −o[n, g..] · xs,
//                     out[.., n] = out + Σ_g_2.. off
//   row_sums:         out[.., n] += Σ_w.. Σ_l acc[.., n, w.., l]
//
// with e split as (j, l), l the `lanes` innermost elements: exact in real
// arithmetic (Σ x·(s·q − o) = s·Σ x·q − o·Σ x), the offset never turned
// into a zero-point (o / s is inexact, and undefined where s = 0). The
// offset costs one product per row and sub-block, not one per lane, and is
// carried across g_1 as a vector of the inner groups: a strategy takes a
// super-block's offsets as one vector, with no reduction per step. The
// lane groups w (none unless asked) are group dims the accumulator keeps
// as lanes: q4_K's two 32-byte chunks of one 64-byte slice of nibbles
// then make one 512-bit dot product rather than two of 256 bits.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_FACTORTWOLEVELCONTRACTION_H
#define QFORGE_REWRITES_FACTORTWOLEVELCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// What analyzeTwoLevelContraction found.
struct TwoLevelPlan {
  mlir::linalg::GenericOp contraction, dequant;
  mlir::OpOperand *weightsUse = nullptr, *activationUse = nullptr;
  /// The dequantization's operands: scale and offset (null when s·q only).
  mlir::OpOperand *scale = nullptr, *offset = nullptr;
  /// The dequantization's ops that compute s·q and s·q − o.
  mlir::Operation *scaled = nullptr, *offsetOp = nullptr;
  /// The dequantization's value of q, and (integer mode) the unsigned
  /// byte it converts.
  mlir::Value quant, integerQuant;
  /// Contraction dims: the weight row n, the groups (the reduction dims the
  /// scale reads, in the dequantization's order) and the element dim e.
  int64_t n = -1, element = -1;
  llvm::SmallVector<int64_t> groups;
  /// Contraction dim of each dequantization loop.
  llvm::SmallVector<int64_t> dequantDims;
  int64_t lanes = 16;
  /// Group dims (a subset of `groups`, in the groups' order) that the
  /// group sums keep as lanes of their accumulator instead of reducing them
  /// per step: acc[.., n, wide.., l], summed in the row sums. Sub-blocks
  /// whose bytes are contiguous (q4_K's two 32-byte chunks of one 64-byte
  /// slice) then make one dot product of the whole width.
  llvm::SmallVector<int64_t, 2> laneGroups;
  /// Integer mode: the activation quantized to int8 per sub-block, p summed
  /// in i32 as u8 (q) x s8 (x) products, 4 per lane (vpdpbusd), and
  ///   sa = s·amax/127 (its own generic), acc += sa·p, xs = amax/127·Σxq.
  bool quantizeActivations = false;
};

/// The factored generics.
struct FactoredTwoLevel {
  /// The activation's per-sub-block maximum and its int8 quantization
  /// (integer mode only).
  mlir::linalg::GenericOp activationMax, quantizedActivation;
  /// The activation's sums per lane, then per sub-block (null without an
  /// offset).
  mlir::linalg::GenericOp activationLaneSums, activationSums;
  /// Integer mode: each scale times its sub-block's amax/127.
  mlir::linalg::GenericOp activationScaledScales;
  mlir::linalg::GenericOp partialSums, groupSums;
  /// The offsets per row and inner group, then per row (null without an
  /// offset).
  mlir::linalg::GenericOp offsetSums, offsetRows;
  mlir::linalg::GenericOp rowSums;
};

/// Whether `contraction` is a two-level pair this rewrite takes, changing
/// nothing; `reason` says why not. With `dividingLanes`, `lanes` is a
/// bound: the plan takes the largest lane count at most `lanes` that
/// divides the sub-block (q4_K's 32 elements and q6_K's 16 under one
/// script). `laneGroups` is the number of group dims at most kept in the
/// accumulator's lanes: the innermost group dims of the weights' bytes,
/// directly outside their element dim, while the accumulator stays within
/// 16 lanes (TwoLevelPlan::laneGroups). With `dynamicTokens` the dims the
/// weights are not read through (the tokens) may be dynamic: the plan then
/// only says the pair is one (the strategy selection's question); the
/// rewrite takes static shapes.
mlir::FailureOr<TwoLevelPlan> analyzeTwoLevelContraction(
    mlir::linalg::GenericOp contraction, int64_t lanes, std::string &reason,
    bool quantizeActivations = false, bool dividingLanes = false,
    int64_t laneGroups = 0, bool dynamicTokens = false);

/// The attribute each generic factorTwoLevelContraction makes carries: the
/// number of its contraction's group dims (transform.qforge.
/// tile_two_level_loops reads it).
inline constexpr llvm::StringLiteral kTwoLevelGroupsAttr =
    "qforge.two_level_groups";
/// The group dims kept in the accumulator's lanes, as positions among the
/// group dims (TwoLevelPlan::laneGroups), on the group sums: their
/// sub-block loops are not tiled.
inline constexpr llvm::StringLiteral kTwoLevelLaneGroupsAttr =
    "qforge.two_level_lane_groups";

/// The rewrite of an analyzed pair; the dequantization is erased once
/// nothing else reads it.
FactoredTwoLevel factorTwoLevelContraction(mlir::RewriterBase &rewriter,
                                           const TwoLevelPlan &plan);

} // namespace qforge

#endif // QFORGE_REWRITES_FACTORTWOLEVELCONTRACTION_H
