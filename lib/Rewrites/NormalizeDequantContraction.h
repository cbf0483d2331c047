//===- NormalizeDequantContraction.h - to the canonical form ----*- C++ -*-===//
//
// Rebuilds a group-quantized matmul read by Analysis/ProducerForms in the
// canonical form the strategies take (the seed's; docs/forms.md). Weights
// are never copied: the activation, the result and the N x G parameters
// reach the canonical shapes through tensor.expand_shape / collapse_shape
// (views once bufferized); parameters stored G x N stay so, read through
// (d1, d0, 0) -- nothing is copied.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_NORMALIZEDEQUANTCONTRACTION_H
#define QFORGE_REWRITES_NORMALIZEDEQUANTCONTRACTION_H

#include "Analysis/ProducerForms.h"

#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// The canonical dequantization and contraction built for a form.
struct CanonicalPair {
  mlir::linalg::GenericOp dequant;
  mlir::linalg::GenericOp contraction;
};

/// Rewrites `form` into the canonical form; the old contraction is replaced
/// (its users read the result reshaped back to the old type) and the old
/// dequantization erased once unused. A canonical form is returned as is.
CanonicalPair normalizeDequantContraction(mlir::RewriterBase &rewriter,
                                          const ProducerForm &form);

/// Normalizes every quantized matmul under `root`. A recognised form that
/// is not supported gets an error at its contraction naming what is
/// missing, and the result is failure (the IR may be partly normalized).
mlir::LogicalResult normalizeDequantContractions(mlir::Operation *root);

} // namespace qforge

#endif // QFORGE_REWRITES_NORMALIZEDEQUANTCONTRACTION_H
