//===- ProducerForms.h - front ends' spellings ------------------*- C++ -*-===//
//
// IREE, torch-mlir and hand-written kernels spell the same group-quantized
// matmul with other ranks, maps, loop orders and dequantization bodies
// (docs/forms.md). This analysis reads one such spelling -- a dequantization
// generic feeding a contraction with two reduction dims -- and says what
// every loop and every operand dim is for, so that
// Rewrites/NormalizeDequantContraction can rebuild it in the canonical form
// the strategies take (the seed's):
//
//   weights  N x G x K   (integer, identity map)
//   scales   N x G x 1   (and zero-points, or none) through (d0, d1, 0)
//   dequant  (tofp(w) - z) * s
//   activation 1 x M x G x K through (d0, d1, d3, d4)
//   result     1 x M x N through (d0, d1, d2), iterators [p, p, p, r, r]
//
// The analysis changes nothing; it is the check half of the normalization.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_ANALYSIS_PRODUCERFORMS_H
#define QFORGE_ANALYSIS_PRODUCERFORMS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/APFloat.h"

#include <optional>
#include <string>

namespace qforge {

/// The normalization computes an f16 or bf16 matmul in f32 and rounds its
/// result to the result's type in one elementwise generic carrying this
/// attribute (docs/numerics.md); the bench's reference skips it, to compare
/// the kernel against the exact f32 sums.
inline constexpr llvm::StringLiteral kResultRoundingAttr =
    "qforge.result_rounding";

/// What a loop of the group contraction walks.
enum class MatmulRole {
  Token,   ///< M: a row of the activation and of the result
  Row,     ///< N: a row of the weights, an element of a result row
  Group,   ///< G: a group of K (one scale and zero-point)
  Element, ///< K: an element of a group
};

/// A per-group parameter of the dequantization (scale or zero-point).
struct GroupParameter {
  /// The dequantization's input holding it; null for a constant.
  mlir::OpOperand *operand = nullptr;
  /// The constant, when the body uses one instead of an input (llama.cpp's
  /// q4_0 zero-point of 8).
  std::optional<llvm::APFloat> constant;
  /// The input is stored G x N (plus unit dims) instead of N x G.
  bool transposed = false;
};

/// A group-quantized matmul as a producer spelled it.
struct ProducerForm {
  mlir::linalg::GenericOp contraction;
  mlir::linalg::GenericOp dequant;
  /// The contraction's input reading the activation.
  mlir::OpOperand *activation = nullptr;
  /// The dequantization's integer input and its int-to-float chain (the op
  /// producing the float value, inside the body).
  mlir::OpOperand *weights = nullptr;
  mlir::Value weightsAsFloat;
  GroupParameter scales;
  /// Absent (symmetric) when neither operand nor constant is set.
  GroupParameter zeroPoints;
  /// Role of each contraction loop.
  llvm::SmallVector<MatmulRole> loopRoles;
  /// Sizes: M (all token loops together), N, G, K.
  int64_t tokens = 1, rows = 0, groups = 0, groupSize = 0;
  /// The activation, the dequantized weights or the result are f16 or bf16:
  /// the canonical form computes in f32 -- the activation converted on the
  /// way in, scales and zero-points widened as the dequantization reads
  /// them -- and rounds the result once, at the end.
  bool narrowFloats = false;
  /// Already the canonical form: nothing to rewrite.
  bool isCanonical = false;
};

/// The outcome of reading a contraction.
struct ProducerFormMatch {
  /// Set when the contraction is a group-quantized matmul qforge can bring
  /// to the canonical form.
  std::optional<ProducerForm> form;
  /// Set when the contraction is recognised (a multiply-accumulate with two
  /// reduction dims reading an int-to-float dequantization) but spelled in a
  /// way qforge does not support: what is missing.
  std::string unsupported;
  bool isRecognised() const { return form || !unsupported.empty(); }
};

/// Reads `contraction`. Neither field is set when it is not a quantized
/// matmul at all.
ProducerFormMatch analyzeProducerForm(mlir::linalg::GenericOp contraction);

/// M, the activation rows a quantized matmul (in any form, byte pairs
/// included) multiplies at once: the product of the parallel loops that do
/// not walk the weights; ShapedType::kDynamic when one is dynamic;
/// std::nullopt when `contraction` is not a quantized matmul.
std::optional<int64_t> countTokens(mlir::linalg::GenericOp contraction);

} // namespace qforge

#endif // QFORGE_ANALYSIS_PRODUCERFORMS_H
