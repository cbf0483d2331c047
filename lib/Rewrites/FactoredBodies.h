//===- FactoredBodies.h - the bodies of the factored generics ---*- C++ -*-===//
//
// The arithmetic both factorings (FactorDequantContraction.h for the (n, g,
// k) form, FactorPackedDequantContraction.h for packed weights) put in their
// activation-sum, partial-sum and group-sum generics, float or integer mode
// alike.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_FACTOREDBODIES_H
#define QFORGE_REWRITES_FACTOREDBODIES_H

#include "Analysis/DequantContraction.h"
#include "Analysis/NibblePairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace qforge {

/// Activation sums, args (x, acc): acc + x, the int8 activation of integer
/// mode converted to `floatType` first (exact).
inline void buildActivationSumBody(mlir::OpBuilder &b, mlir::Location l,
                                   mlir::ValueRange args,
                                   bool quantizeActivations,
                                   mlir::Type floatType) {
  using namespace mlir;
  Value value = args[0];
  if (quantizeActivations)
    value = arith::SIToFPOp::create(b, l, floatType, value);
  linalg::YieldOp::create(
      b, l, arith::AddFOp::create(b, l, value, args[1]).getResult());
}

/// Partial sums, args (x, w, acc): acc + x · tofp(w) in `floatType`; or, in
/// integer mode, acc + extui(w) · extsi(x) in i32 -- unsigned weight bytes
/// times signed activation bytes, the operand kinds of vpdpbusd (exact).
/// With `nibbleDim`, w is a byte pair and the weight its nibble picked by
/// that loop dim (Analysis/NibblePairs.h). Signed weights in integer mode
/// are made unsigned by flipping their sign bit (w + 2^(bits-1), bits = 8 or
/// 4); the group sums take the offset back (integerWeightOffset). With
/// `magnitudeTimesSign` (8-bit weights only) the other way round: signed
/// weight bytes, unsigned ones flipped (w - 128), times the activation
/// clamped to at least -127, both sign-extended (see the body).
inline void buildPartialSumBody(mlir::OpBuilder &b, mlir::Location l,
                                mlir::ValueRange args, bool quantizeActivations,
                                bool weightsAreSigned, mlir::Type floatType,
                                std::optional<unsigned> nibbleDim = {},
                                bool magnitudeTimesSign = false) {
  using namespace mlir;
  Value weight = args[1];
  if (quantizeActivations && magnitudeTimesSign && !nibbleDim) {
    // Signed weight bytes times the activation's bytes clamped to +-127
    // (a no-op: the quantization's own clamp, restated so that the bound
    // can be read off the ops). `x86_int8_dot_products` computes each
    // product as |w| times x with w's sign: at most 128 times at most 127,
    // whose pairs one pmaddubsw sums without saturating
    // (ExpandByteDotProducts.h) where the unsigned x signed form needs two.
    // Unsigned weights are made signed by flipping their sign bit (w - 128);
    // the group sums take the offset back (integerWeightOffset).
    Type i8 = weight.getType();
    if (!weightsAreSigned)
      weight = arith::XOrIOp::create(
          b, l, weight, arith::ConstantIntOp::create(b, l, i8, 0x80));
    Value clamped = arith::MaxSIOp::create(
        b, l, args[0], arith::ConstantIntOp::create(b, l, i8, -127));
    Type i32 = b.getI32Type();
    Value w = arith::ExtSIOp::create(b, l, i32, weight);
    Value x = arith::ExtSIOp::create(b, l, i32, clamped);
    Value product = arith::MulIOp::create(b, l, w, x);
    linalg::YieldOp::create(
        b, l, arith::AddIOp::create(b, l, product, args[2]).getResult());
    return;
  }
  if (quantizeActivations && weightsAreSigned) {
    // 0x80 flips a byte's sign bit, 0x88 both nibbles'.
    Value signBits = arith::ConstantIntOp::create(b, l, weight.getType(),
                                                  nibbleDim ? 0x88 : 0x80);
    weight = arith::XOrIOp::create(b, l, weight, signBits);
  }
  if (nibbleDim)
    weight = buildNibbleOfBytePair(b, l, weight, *nibbleDim);
  if (quantizeActivations) {
    Type i32 = b.getI32Type();
    Value w = arith::ExtUIOp::create(b, l, i32, weight);
    Value x = arith::ExtSIOp::create(b, l, i32, args[0]);
    Value product = arith::MulIOp::create(b, l, w, x);
    linalg::YieldOp::create(
        b, l, arith::AddIOp::create(b, l, product, args[2]).getResult());
    return;
  }
  Value asFloat =
      weightsAreSigned
          ? arith::SIToFPOp::create(b, l, floatType, weight).getResult()
          : arith::UIToFPOp::create(b, l, floatType, weight).getResult();
  Value product = arith::MulFOp::create(b, l, args[0], asFloat);
  linalg::YieldOp::create(
      b, l, arith::AddFOp::create(b, l, product, args[2]).getResult());
}

/// What buildPartialSumBody adds to each weight in integer mode: 2^(bits-1)
/// for signed weights (128 for bytes, 8 for nibbles), else 0; with
/// `magnitudeTimesSign` on bytes, -128 for unsigned weights, else 0.
inline double integerWeightOffset(bool quantizeActivations,
                                  bool weightsAreSigned, bool nibbles,
                                  bool magnitudeTimesSign = false) {
  if (quantizeActivations && magnitudeTimesSign && !nibbles)
    return weightsAreSigned ? 0.0 : -128.0;
  if (!quantizeActivations || !weightsAreSigned)
    return 0.0;
  return nibbles ? 8.0 : 128.0;
}

/// Where integer-mode group sums apply the activation's scale amax / 127.
enum class ActivationScaleOrder {
  /// s · (amax / 127): a decode, where amax is one scalar per group shared
  /// by every row (s / 127 would be a vector multiply per group).
  ActivationFirst,
  /// (s / 127) · amax: s / 127 depends on the weights only, so a prefill
  /// computes it once per group and row tile, outside its token loop, and
  /// each token's amax is a broadcast operand of one multiply (amax / 127
  /// per token was a vector multiply and a lane permutation each).
  WeightsFirst,
};

/// Group sums, args (s, [z | o,] [xs,] p, [amax,] out), z or o as `shift`
/// says: out + s · (p − z · xs), where in integer mode p is converted from
/// i32 and s is multiplied by the activation's scale amax / 127 (in
/// `order`). A `weightOffset` c added to every weight of p
/// (integerWeightOffset) is taken back with the zero-point: p − (z + c) · xs,
/// or p − c · xs without one; xs is read when either term exists. An offset
/// o (the form s·w − o) is in the weights' units, not the integers':
/// out + s · (p − c · xs) − o · xs, xs times amax / 127 in integer mode.
inline void buildGroupSumBody(
    mlir::OpBuilder &b, mlir::Location l, mlir::ValueRange args,
    DequantShift shift, bool quantizeActivations, mlir::Type floatType,
    double weightOffset = 0.0,
    ActivationScaleOrder order = ActivationScaleOrder::ActivationFirst) {
  using namespace mlir;
  unsigned next = 0;
  // Scales and zero-points stored narrower (f16, bf16) are widened here,
  // as they are loaded: the dequantization read them through arith.extf.
  auto widen = [&](Value value) -> Value {
    if (!value || value.getType() == floatType)
      return value;
    return arith::ExtFOp::create(b, l, floatType, value);
  };
  Value scale = widen(args[next++]);
  Value zeroPoint, groupOffset;
  if (shift == DequantShift::ZeroPoint)
    zeroPoint = widen(args[next++]);
  else if (shift == DequantShift::Offset)
    groupOffset = widen(args[next++]);
  Value activationSum = shift != DequantShift::None || weightOffset != 0.0
                            ? args[next++]
                            : Value();
  Value shifted = args[next++];
  // The offset form's o · Σx: in f32 o · xs; in integer mode
  // Σx = xs · amax / 127, which (like s) takes the order's grouping: a
  // decode's xs · (amax / 127) is scalar work per group, one vector
  // multiply by o; a prefill's o / 127 depends on the weights only (computed
  // outside its token loop) and xs · amax is one scalar per token.
  Value offsetTerm;
  if (groupOffset && !quantizeActivations)
    offsetTerm = arith::MulFOp::create(b, l, groupOffset, activationSum);
  if (quantizeActivations) {
    Value inverseLimit = arith::ConstantOp::create(
        b, l, floatType, b.getFloatAttr(floatType, 1.0 / 127.0));
    // amax arrives as its float's bits (quantizeActivation's integer max).
    Value activationMax =
        arith::BitcastOp::create(b, l, floatType, args[next++]);
    if (order == ActivationScaleOrder::WeightsFirst) {
      Value weightScale = arith::MulFOp::create(b, l, scale, inverseLimit);
      scale = arith::MulFOp::create(b, l, weightScale, activationMax);
      if (groupOffset) {
        Value offsetOverLimit =
            arith::MulFOp::create(b, l, groupOffset, inverseLimit);
        Value sums = arith::MulFOp::create(b, l, activationSum, activationMax);
        offsetTerm = arith::MulFOp::create(b, l, offsetOverLimit, sums);
      }
    } else {
      Value activationScale =
          arith::MulFOp::create(b, l, activationMax, inverseLimit);
      scale = arith::MulFOp::create(b, l, scale, activationScale);
      if (groupOffset) {
        Value sums =
            arith::MulFOp::create(b, l, activationSum, activationScale);
        offsetTerm = arith::MulFOp::create(b, l, groupOffset, sums);
      }
    }
    shifted = arith::SIToFPOp::create(b, l, floatType, shifted);
  }
  if (weightOffset != 0.0) {
    Value offset = arith::ConstantOp::create(
        b, l, floatType, b.getFloatAttr(floatType, weightOffset));
    zeroPoint =
        zeroPoint ? arith::AddFOp::create(b, l, zeroPoint, offset) : offset;
  }
  if (zeroPoint) {
    Value offset = arith::MulFOp::create(b, l, zeroPoint, activationSum);
    shifted = arith::SubFOp::create(b, l, shifted, offset);
  }
  Value scaled = arith::MulFOp::create(b, l, scale, shifted);
  if (offsetTerm)
    scaled = arith::SubFOp::create(b, l, scaled, offsetTerm);
  linalg::YieldOp::create(
      b, l, arith::AddFOp::create(b, l, scaled, args.back()).getResult());
}

} // namespace qforge

#endif // QFORGE_REWRITES_FACTOREDBODIES_H
