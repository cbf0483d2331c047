//===- FactorPackedDequantContraction.h - packed factoring ------*- C++ -*-===//
//
// The factoring of FactorDequantContraction.h for a contraction whose vector
// lanes are its own parallel dims -- as after packing the weights with an
// inner tile of rows innermost (`(k, n)` inner tiles): the element dims K
// are summed first, with no split, and the scale and zero-point applied once
// per group:
//   xs[.., g]     = Σ_K x[.., g, K]
//   p[.., P, g]   = Σ_K x[.., g, K] · tofp(w[.., P, g, K])
//   out[.., P]   += Σ_g s[P, g] · (p[.., P, g] − z[P, g] · xs[.., g])
// where P are the contraction's parallel dims, g the reduction dims the scale
// or zero-point varies along and K the reduction dims they do not. Integer
// mode (`quantizeActivations`) first quantizes x to int8 per group
// (QuantizeActivation.h), sums u8 x s8 products in i32 and applies the
// activation's scale amax / 127 with s.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_FACTORPACKEDDEQUANTCONTRACTION_H
#define QFORGE_REWRITES_FACTORPACKEDDEQUANTCONTRACTION_H

#include "Analysis/DequantContraction.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

#include <optional>

namespace qforge {

/// The packs of the quantized activation (integer mode on an activation
/// read through a linalg.pack) carry this attribute: "amax", "xq" or "xs".
inline constexpr llvm::StringLiteral kActivationPackAttrName =
    "qforge.activation_pack";

/// The generics of the factored packed form (activationSums is null without
/// a zero-point and with unsigned weights; the activation quantization
/// exists in integer mode). In integer mode on an activation that reaches
/// the contraction through a linalg.pack (zero or no padding, static
/// source and tiles, tiles on element dims only where the source dim is
/// one), amax, xq and xs are built on the pack's source -- at its rank --
/// and packed like the activation (packs tagged kActivationPackAttrName);
/// the activation's pack is erased once unused.
struct FactoredPackedContraction {
  mlir::linalg::GenericOp activationMax;       ///< amax (integer mode)
  mlir::linalg::GenericOp quantizedActivation; ///< xq (integer mode)
  mlir::linalg::GenericOp activationSums;      ///< xs
  mlir::linalg::GenericOp partialSums;         ///< p
  mlir::linalg::GenericOp groupSums;           ///< replaces the contraction
};

/// What analyzePackedFactoring found: every precondition holds, and the
/// roles of the contraction's dims and operands the rewrite builds from.
struct PackedFactorPlan {
  DequantParts dequant;
  mlir::linalg::LinalgOp contraction;
  bool quantizeActivations = false;
  /// Integer mode on 8-bit weights: FactorOptions::magnitudeTimesSign (set
  /// by the caller after the analysis).
  bool magnitudeTimesSign = false;
  mlir::OpOperand *weightsUse = nullptr, *activationUse = nullptr;
  mlir::AffineMap weightsMap, activationMap, outputMap; ///< contraction dims
  mlir::AffineMap storedWeightsMap; ///< contraction dims -> the integer weights
  std::optional<unsigned> nibbleDim; ///< contraction dim, byte pairs only
  /// In the contraction's dims; zeroPointMap reads the offsets in the
  /// offset form (DequantParts::offsets).
  mlir::AffineMap scaleMap, zeroPointMap;
  llvm::SmallBitVector elementDims; ///< K
  llvm::SmallBitVector groupDims;   ///< g
};

/// The analysis: checks every precondition, changing nothing; `reason` says
/// why the factoring does not apply.
mlir::FailureOr<PackedFactorPlan>
analyzePackedFactoring(const DequantParts &dequant,
                       mlir::linalg::LinalgOp contraction,
                       bool quantizeActivations, std::string &reason);

/// The rewrite of an analyzed contraction into the factored packed form;
/// the dequant is erased once nothing else reads it.
FactoredPackedContraction applyPackedFactoring(mlir::RewriterBase &rewriter,
                                               const PackedFactorPlan &plan);

/// Whether factorPackedDequantContraction would succeed; `reason` says why
/// not.
mlir::LogicalResult canFactorPackedDequantContraction(
    const DequantParts &dequant, mlir::linalg::LinalgOp contraction,
    bool quantizeActivations, std::string &reason);

/// Rewrites `contraction` (which reads `dequant.op`'s result) into the
/// factored form; the dequant is erased once nothing else reads it. On
/// failure, nothing is changed and `reason` says why.
mlir::FailureOr<FactoredPackedContraction> factorPackedDequantContraction(
    mlir::RewriterBase &rewriter, const DequantParts &dequant,
    mlir::linalg::LinalgOp contraction, bool quantizeActivations,
    std::string &reason, bool magnitudeTimesSign = false);

} // namespace qforge

#endif // QFORGE_REWRITES_FACTORPACKEDDEQUANTCONTRACTION_H
