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
/// that loop dim (Analysis/NibblePairs.h).
inline void buildPartialSumBody(mlir::OpBuilder &b, mlir::Location l,
                                mlir::ValueRange args, bool quantizeActivations,
                                bool weightsAreSigned, mlir::Type floatType,
                                std::optional<unsigned> nibbleDim = {}) {
  using namespace mlir;
  Value weight = args[1];
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

/// Group sums, args (s, [z, xs,] p, [amax,] out): out + s · (p − z · xs),
/// where in integer mode p is converted from i32 and s is multiplied by the
/// activation's scale amax / 127.
inline void buildGroupSumBody(mlir::OpBuilder &b, mlir::Location l,
                              mlir::ValueRange args, bool hasZeroPoint,
                              bool quantizeActivations, mlir::Type floatType) {
  using namespace mlir;
  Value scale = args[0], shifted = args[hasZeroPoint ? 3 : 1];
  if (quantizeActivations) {
    Value inverseLimit = arith::ConstantOp::create(
        b, l, floatType, b.getFloatAttr(floatType, 1.0 / 127.0));
    Value activationScale =
        arith::MulFOp::create(b, l, args[hasZeroPoint ? 4 : 2], inverseLimit);
    scale = arith::MulFOp::create(b, l, scale, activationScale);
    shifted = arith::SIToFPOp::create(b, l, floatType, shifted);
  }
  if (hasZeroPoint) {
    Value offset = arith::MulFOp::create(b, l, args[1], args[2]);
    shifted = arith::SubFOp::create(b, l, shifted, offset);
  }
  Value scaled = arith::MulFOp::create(b, l, scale, shifted);
  linalg::YieldOp::create(
      b, l, arith::AddFOp::create(b, l, scaled, args.back()).getResult());
}

} // namespace qforge

#endif // QFORGE_REWRITES_FACTOREDBODIES_H
