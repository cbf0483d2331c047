//===- TwoLevelAsSeedInt4.h - q4_0's blocks as the 4-bit seed form -*- C++
//-*-===//
//
// q4_0 read in place (examples/gen_gguf_kernel.py q4_0, qforge-gguf) is a
// two-level pair (Rewrites/FactorTwoLevelContraction.h) over (n, b, h, l):
// w = s·q − o per half-block, q nibble h of byte l of the block's 16, and
// s = d, o = 8·d both from the block's one f16 d. Its offset is a constant
// multiple c of its scale, so the same weights are (q − c)·d: the 4-bit
// seed form with a constant zero-point (docs/forms.md), the form of q4_0's
// fields apart (`gen_gguf_kernel.py q4_0 --fields`), which the 4-bit
// strategies read as byte pairs packed once by `<f>_pack_weights`.
//
// The rewrite builds that form on the same bytes: the dequantization loops
// over (n, b, j, h) -- nibble h of byte j, the pair innermost as the 4-bit
// strategies read it -- from the block's byte slice, d (N x B x 1) and a
// splat zero-point; the activation is read through a linalg.transpose of
// its two innermost dims (which the strategies fold into their reads); the
// contraction gets the canonical leading unit dim. Nothing is copied: the
// bytes' slice and d's join of two bytes move into the weight packing
// (Rewrites/SplitParameterPacking.h) with the byte pairs' pack.
//
// The driver takes this route only with --packed-weights: read in place,
// the two-level strategies need no packing at all. Taken only where both
// forms are exact in f32 -- a 16-bit d, a whole c of at most 255 -- so the
// rewrite changes no bit of a weight ((q − c)·d is ggml's own formula).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_TWOLEVELASSEEDINT4_H
#define QFORGE_REWRITES_TWOLEVELASSEEDINT4_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// What analyzeTwoLevelAsSeedInt4 found.
struct TwoLevelAsSeedInt4Plan {
  mlir::linalg::GenericOp contraction;
  /// N x B x L bytes, nibble h of byte l being element (h, l) of block b.
  mlir::Value bytes;
  /// N x B: the per-block scale d the scale and offset both convert.
  mlir::Value blockScale;
  /// c in o = c·d (q4_0's 8).
  double zeroPoint = 0;
  /// The kernel argument the bytes are a view of.
  unsigned bytesArgument = 0;
};

/// Whether `contraction` is a two-level pair of q4_0's shape that
/// rewriteTwoLevelAsSeedInt4 takes, changing nothing; `reason` says why
/// not. The token count may be dynamic.
mlir::FailureOr<TwoLevelAsSeedInt4Plan>
analyzeTwoLevelAsSeedInt4(mlir::linalg::GenericOp contraction,
                          std::string &reason);

/// The rewrite of an analyzed pair: the new contraction. The function gets
/// `qforge.int4_byte_pairs` naming the bytes' argument; the two-level
/// generics left unused are erased.
mlir::linalg::GenericOp
rewriteTwoLevelAsSeedInt4(mlir::RewriterBase &rewriter,
                          const TwoLevelAsSeedInt4Plan &plan);

/// Every pair of `module` that analyzeTwoLevelAsSeedInt4 takes, rewritten;
/// how many.
unsigned rewriteTwoLevelPairsAsSeedInt4(mlir::ModuleOp module);

} // namespace qforge

#endif // QFORGE_REWRITES_TWOLEVELASSEEDINT4_H
