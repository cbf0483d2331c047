//===- QuantizeActivation.h - int8 activations, per group -------*- C++ -*-===//
//
// The activation quantization of the integer factoring (llama.cpp's q8
// activations): per group,
//   amax[kept] = max over the reduced dims of |x|
//   xq = clamp(roundeven(x · 127 / amax), -127, 127)   (0 when amax = 0)
// as two generics; the activation's scale amax / 127 is applied with the
// weights' scale, once per group.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_QUANTIZEACTIVATION_H
#define QFORGE_REWRITES_QUANTIZEACTIVATION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

struct QuantizedActivation {
  /// amax: the activation without `reduced` dims, as the bits of its float
  /// type (an integer tensor; consumers bitcast it back).
  mlir::linalg::GenericOp max;
  mlir::linalg::GenericOp quantized; ///< xq: i8, the activation's shape
};

/// Builds amax and xq for the float tensor `activation`; `reduced[i]` says
/// whether its dim i is summed within a group (the element dims). With a
/// `storedOrder` (a permutation), xq's dim i is the activation's dim
/// storedOrder[i]: a consumer that reads several groups in one step finds
/// them contiguous.
QuantizedActivation
quantizeActivation(mlir::RewriterBase &rewriter, mlir::Location loc,
                   mlir::Value activation, llvm::ArrayRef<bool> reduced,
                   llvm::ArrayRef<unsigned> storedOrder = {});

} // namespace qforge

#endif // QFORGE_REWRITES_QUANTIZEACTIVATION_H
