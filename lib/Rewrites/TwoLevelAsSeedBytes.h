//===- TwoLevelAsSeedBytes.h - K-quant blocks as the 8-bit seed form -*- C++
//-*-===//
//
// q6_K read in place (examples/gen_gguf_kernel.py q6_K, qforge-gguf) is a
// two-level pair (Rewrites/FactorTwoLevelContraction.h) over
// (m, n, b, h, k1, k0, l1, l0): w = s·q − o per sub-block of 16, q a 6-bit
// integer the dequantization computes from two bytes of the block (a
// nibble of ql, two bits of qh), s = d·sc and o = 32·s. Its offset is a
// constant multiple c of its scale, so the same weights are (q − c)·s --
// ggml's own formula (dequantize_row_q6_K: d·sc·(q − 32), one rounding),
// the 8-bit seed form with a constant zero-point (docs/forms.md), whose
// packed strategies (decode and prefill, f32 and int8 activations) run at
// the seed's speed once the quants sit one per byte.
//
// The rewrite builds that form: a generic over the dequantization's loops
// computes q as a byte from the same bytes (the dequantization's integer
// ops, cloned), reshaped to N x G x E (G the sub-blocks of a row, E their
// elements, in the activation's order); the scale's generic is reshaped
// to N x G; the zero-point is a splat c; the activation is the M x K
// source reshaped to 1 x M x G x E. Every one of those is a computation on
// the blocks' argument alone, so the packing (Rewrites/SplitParameter-
// Packing.h) takes it into `<f>_pack_weights`: the quants are unpacked and
// the scales decoded once, nothing per call.
//
// The seed form rounds once ((q − c)·s, q − c exact for bytes and
// |c| <= 255) where the two-level form rounds twice (s·q, c·s and their
// difference): the same real weights, not always the same bits; for q6_K
// (s = d·sc, 19 significant bits) it is ggml's own rounding.
//
// q4_K and q5_K (o = dmin·m, no multiple of s = d·sc: o/s is inexact, and
// undefined where sc = 0) take the same route with the offset kept: the
// seed's offset form q·s − o, the offset's generic reshaped to N x G
// beside the scale's (DequantParts::offsets), which the packed factorings
// subtract as o·Σx per group (Rewrites/FactorPackedDequantContraction.h).
//
// The driver takes this route only with --packed-weights: read in place,
// the two-level strategies need no packing (and read 4.5-6.56 bits a
// weight, not 10).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_TWOLEVELASSEEDBYTES_H
#define QFORGE_REWRITES_TWOLEVELASSEEDBYTES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// What analyzeTwoLevelAsSeedBytes found.
struct TwoLevelAsSeedBytesPlan {
  mlir::linalg::GenericOp contraction, dequant;
  /// The dequantization's inputs q is computed from (not the scale or the
  /// offset).
  llvm::SmallVector<mlir::OpOperand *> quantInputs;
  /// The dequantization's integer q (unsigned, at most 8 bits), in its
  /// body.
  mlir::Value integerQuant;
  /// The scale per sub-block, N x G_1 x .. x G_r in f32.
  mlir::Value scale;
  /// c in o = c·s (q6_K's 32), when the offset is such a multiple.
  double zeroPoint = 0;
  /// Otherwise the offset per sub-block (q4_K's and q5_K's dmin·m),
  /// N x G_1 x .. x G_r in f32: the seed's offset form s·q − o.
  mlir::Value offset;
  /// The M x K activation the contraction reads through a reshape.
  mlir::Value activation;
};

/// Whether `contraction` is a two-level pair of that kind that
/// rewriteTwoLevelAsSeedBytes takes, changing nothing; `reason` says why
/// not. The token count may be dynamic.
mlir::FailureOr<TwoLevelAsSeedBytesPlan>
analyzeTwoLevelAsSeedBytes(mlir::linalg::GenericOp contraction,
                           std::string &reason);

/// The rewrite of an analyzed pair: the new contraction. The two-level
/// generics left unused are erased.
mlir::linalg::GenericOp
rewriteTwoLevelAsSeedBytes(mlir::RewriterBase &rewriter,
                           const TwoLevelAsSeedBytesPlan &plan);

/// Every pair of `module` that analyzeTwoLevelAsSeedBytes takes, rewritten;
/// how many.
unsigned rewriteTwoLevelPairsAsSeedBytes(mlir::ModuleOp module);

} // namespace qforge

#endif // QFORGE_REWRITES_TWOLEVELASSEEDBYTES_H
