//===- QuantizeActivation.cpp - int8 activations, per group ---------------===//

#include "Rewrites/QuantizeActivation.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

using namespace mlir;

qforge::QuantizedActivation
qforge::quantizeActivation(RewriterBase &rewriter, Location loc,
                           Value activation, ArrayRef<bool> reduced,
                           ArrayRef<unsigned> storedOrder) {
  MLIRContext *ctx = rewriter.getContext();
  auto type = cast<RankedTensorType>(activation.getType());
  Type floatType = type.getElementType(), i8 = rewriter.getI8Type();
  unsigned rank = type.getRank();
  auto par = utils::IteratorType::parallel;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);

  // amax as the unsigned integer maximum of the sign-cleared bits: without
  // their sign, IEEE floats order as their bit patterns do, and a NaN's
  // bits exceed infinity's, so a NaN still reaches the scale as with
  // arith.maximumf -- which x86 lowers to ~7 vector ops per register (its
  // NaN and signed-zero cases), against an and and a max here.
  unsigned width = floatType.getIntOrFloatBitWidth();
  Type bitsType = rewriter.getIntegerType(width);
  QuantizedActivation result;
  result.max = reduceDimsIntoZeros(
      rewriter, loc, activation, reduced, bitsType,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value bits = arith::BitcastOp::create(b, l, bitsType, args[0]);
        Value signCleared = arith::ConstantOp::create(
            b, l, bitsType,
            b.getIntegerAttr(bitsType, APInt::getSignedMaxValue(width)));
        Value magnitude = arith::AndIOp::create(b, l, bits, signCleared);
        linalg::YieldOp::create(
            b, l, arith::MaxUIOp::create(b, l, magnitude, args[1]).getResult());
      });
  AffineMap perGroup = result.max.getIndexingMapsArray()[1];
  Value activationMax = result.max->getResult(0);
  SmallVector<int64_t> storedShape(type.getShape());
  AffineMap stored = identity;
  assert((storedOrder.empty() ||
          (storedOrder.size() == rank &&
           isPermutationVector(llvm::to_vector_of<int64_t>(storedOrder)))) &&
         "storedOrder must permute the activation's dims");
  if (!storedOrder.empty()) {
    stored = AffineMap::getPermutationMap(storedOrder, ctx);
    for (auto [i, dim] : llvm::enumerate(storedOrder))
      storedShape[i] = type.getDimSize(dim);
  }
  auto quantizedType = RankedTensorType::get(storedShape, i8);
  Value quantizedInit = tensor::EmptyOp::create(rewriter, loc, storedShape, i8);
  result.quantized = linalg::GenericOp::create(
      rewriter, loc, TypeRange{quantizedType},
      ValueRange{activation, activationMax}, ValueRange{quantizedInit},
      ArrayRef<AffineMap>{identity, perGroup, stored},
      SmallVector<utils::IteratorType>(rank, par),
      [&](OpBuilder &b, Location l, ValueRange args) {
        auto constant = [&](double value) -> Value {
          return arith::ConstantOp::create(b, l, floatType,
                                           b.getFloatAttr(floatType, value));
        };
        Value zero = constant(0.0), limit = constant(127.0);
        Value max = arith::BitcastOp::create(b, l, floatType, args[1]);
        Value positive =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, max, zero);
        Value inverse = arith::SelectOp::create(
            b, l, positive, arith::DivFOp::create(b, l, limit, max), zero);
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
