//===- FactorDequantContraction.h - scale/zp out of the sum -----*- C++ -*-===//
//
// Rewrites a dequantization feeding a group contraction,
//   out[.., n] += Σ_g Σ_k x[.., g, k] · (tofp(w[n, g, k]) − z[n, g]) · s[n, g]
// into the factored form (exact in real arithmetic)
//   out[.., n] += Σ_l acc[.., n, l]
//   acc[.., n, l] = Σ_g s[n, g] · (p[.., n, g, l] − z[n, g] · xs[.., g, l])
//   p[.., n, g, l] = Σ_j x[.., g, j, l] · tofp(w[n, g, j, l])
//   xs[.., g, l]   = Σ_j x[.., g, j, l]
// with k split as (j, l), l the `lanes` innermost elements (one vector). The
// inner loop is then only int-to-float and multiply-add into an l-wide
// accumulator; scale and zero-point are applied once per group, and the only
// cross-lane reduction is one per output element.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_FACTORDEQUANTCONTRACTION_H
#define QFORGE_REWRITES_FACTORDEQUANTCONTRACTION_H

#include "Analysis/DequantContraction.h"

#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// How to factor.
struct FactorOptions {
  /// Elements of one vector accumulator (16 f32 / i32 for AVX-512).
  int64_t lanes = 16;
  /// Integer mode: quantize the activation per group to int8 and accumulate
  /// unsigned-weight x signed-activation byte products in i32 (4 bytes per
  /// lane, k = (j, l, q)); the activation scale joins the weights' scale.
  bool quantizeActivations = false;
  /// Integer mode: sum signed weight bytes (unsigned ones with their sign
  /// bit flipped) times the activation's bytes, clamped to +-127 in the
  /// ops (FactoredBodies.h): one pmaddubsw per pair of products on AVX2
  /// without VNNI, where unsigned weight bytes need two.
  bool magnitudeTimesSign = false;
};

/// The generics of the factored form (activationSums is null without a
/// zero-point; the activation quantization generics exist in integer mode).
struct FactoredContraction {
  mlir::linalg::GenericOp activationMax;       ///< amax (integer mode)
  mlir::linalg::GenericOp quantizedActivation; ///< xq (integer mode)
  mlir::linalg::GenericOp activationSums;      ///< xs
  mlir::linalg::GenericOp partialSums;         ///< p
  mlir::linalg::GenericOp groupSums;           ///< acc
  mlir::linalg::GenericOp rowSums;             ///< replaces the contraction
};

/// Where the contraction's dims go in the factored generics, whose dims are
/// [parallel dims of the contraction, in order..., g, j, l].
struct FactorDimLayout {
  int64_t n = -1, g = -1, k = -1; ///< contraction dims
  llvm::SmallVector<int64_t>
      parallelIndex; ///< contraction dim -> new dim (or -1)
  int64_t numParallel = 0;
};

/// What analyzeFactoring found: every precondition holds, and what the
/// rewrite needs to build the factored generics.
struct FactorPlan {
  DequantParts dequant;
  mlir::linalg::LinalgOp contraction;
  FactorOptions options;
  FactorDimLayout layout;
  mlir::OpOperand *weightsUse = nullptr, *activationUse = nullptr;
  int64_t numGroups = 0;
  int64_t chunks = 0; ///< vectors of `lanes` (x 4 bytes) per group
  /// Scales' and zero-points' maps in the group-sum generic (dims
  /// [parallel..., g, l]); the latter null without a zero-point.
  mlir::AffineMap scaleMap, zeroPointMap;
};

/// The analysis: checks every precondition of the factoring, changing
/// nothing; `reason` says why it does not apply.
mlir::FailureOr<FactorPlan> analyzeFactoring(const DequantParts &dequant,
                                             mlir::linalg::LinalgOp contraction,
                                             const FactorOptions &options,
                                             std::string &reason);

/// The rewrite of an analyzed contraction into the factored form; the
/// dequant is erased once nothing else reads it.
FactoredContraction applyFactoring(mlir::RewriterBase &rewriter,
                                   const FactorPlan &plan);

/// Whether factorDequantContraction would succeed; `reason` says why not.
mlir::LogicalResult
canFactorDequantContraction(const DequantParts &dequant,
                            mlir::linalg::LinalgOp contraction,
                            const FactorOptions &options, std::string &reason);

/// Rewrites `contraction` (which reads `dequant.op`'s result) into the
/// factored form; the dequant is erased once nothing else reads it. On
/// failure, nothing is changed and `reason` says why.
mlir::FailureOr<FactoredContraction>
factorDequantContraction(mlir::RewriterBase &rewriter,
                         const DequantParts &dequant,
                         mlir::linalg::LinalgOp contraction,
                         const FactorOptions &options, std::string &reason);

} // namespace qforge

#endif // QFORGE_REWRITES_FACTORDEQUANTCONTRACTION_H
