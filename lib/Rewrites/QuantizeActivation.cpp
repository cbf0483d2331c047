//===- QuantizeActivation.cpp - int8 activations, per group ---------------===//

#include "Rewrites/QuantizeActivation.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

qforge::QuantizedActivation qforge::quantizeActivation(RewriterBase &rewriter,
                                                       Location loc,
                                                       Value activation,
                                                       ArrayRef<bool> reduced) {
  MLIRContext *ctx = rewriter.getContext();
  auto type = cast<RankedTensorType>(activation.getType());
  Type floatType = type.getElementType(), i8 = rewriter.getI8Type();
  unsigned rank = type.getRank();
  auto par = utils::IteratorType::parallel;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);

  QuantizedActivation result;
  result.max = reduceDimsIntoZeros(
      rewriter, loc, activation, reduced, floatType,
      [](OpBuilder &b, Location l, ValueRange args) {
        Value magnitude = math::AbsFOp::create(b, l, args[0]);
        linalg::YieldOp::create(
            b, l,
            arith::MaximumFOp::create(b, l, magnitude, args[1]).getResult());
      });
  AffineMap perGroup = result.max.getIndexingMapsArray()[1];
  Value activationMax = result.max->getResult(0);
  auto quantizedType = RankedTensorType::get(type.getShape(), i8);
  Value quantizedInit =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(), i8);
  result.quantized = linalg::GenericOp::create(
      rewriter, loc, TypeRange{quantizedType},
      ValueRange{activation, activationMax}, ValueRange{quantizedInit},
      ArrayRef<AffineMap>{identity, perGroup, identity},
      SmallVector<utils::IteratorType>(rank, par),
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto constant = [&](double value) -> Value {
          return arith::ConstantOp::create(b, l, floatType,
                                           b.getFloatAttr(floatType, value));
        };
        Value zero = constant(0.0), limit = constant(127.0);
        Value positive = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                               args[1], zero);
        Value inverse = arith::SelectOp::create(
            b, l, positive, arith::DivFOp::create(b, l, limit, args[1]), zero);
        Value scaled = arith::MulFOp::create(b, l, args[0], inverse);
        Value rounded = math::RoundEvenOp::create(b, l, scaled);
        Value clamped = arith::MaximumFOp::create(
            b, l, arith::MinimumFOp::create(b, l, rounded, limit),
            arith::NegFOp::create(b, l, limit));
        linalg::YieldOp::create(
            b, l, arith::FPToSIOp::create(b, l, i8, clamped).getResult());
      });
  return result;
}
