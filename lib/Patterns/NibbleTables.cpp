//===- NibbleTables.cpp - nibbles to f32 by a 16-entry table --------------===//
//
// See patterns/X86NibbleTables.pdll.
//
//===----------------------------------------------------------------------===//

#include "Patterns/NibbleTables.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

/// vpermps's lanes: one 512-bit register of f32.
static constexpr int64_t kTableLanes = 16;
/// vpermps of 512 bits, data first, index second.
static constexpr llvm::StringLiteral kLookup = "llvm.x86.avx512.permvar.sf.512";

/// The value of the nibble `bits` (0..15) as a signed or unsigned integer.
static float nibbleValue(int64_t bits, bool isSigned) {
  return static_cast<float>(isSigned && bits >= 8 ? bits - 16 : bits);
}

std::optional<qforge::NibbleOfByte>
qforge::matchNibbleToFloat(Operation *convert) {
  if (!isa<arith::UIToFPOp, arith::SIToFPOp>(convert))
    return std::nullopt;
  auto resultType = dyn_cast<VectorType>(convert->getResult(0).getType());
  if (!resultType || resultType.isScalable() ||
      !resultType.getElementType().isF32() ||
      resultType.getNumElements() % kTableLanes != 0)
    return std::nullopt;
  auto trunc = convert->getOperand(0).getDefiningOp<arith::TruncIOp>();
  if (!trunc || !getElementTypeOrSelf(trunc.getType()).isInteger(4) ||
      !getElementTypeOrSelf(trunc.getIn().getType()).isInteger(8))
    return std::nullopt;
  bool isSigned = isa<arith::SIToFPOp>(convert);
  Value bytes = trunc.getIn();
  // A shift by 4 (of either kind: the truncation keeps bits 4-7 alone)
  // picks the high nibble. It is made on the widened lanes instead, so that
  // both nibbles of a byte read one widening once CSE has merged them.
  Operation *shift = bytes.getDefiningOp();
  if (isa_and_nonnull<arith::ShRUIOp, arith::ShRSIOp>(shift)) {
    APInt amount;
    if (matchPattern(shift->getOperand(1), m_ConstantInt(&amount)) &&
        amount == 4)
      return NibbleOfByte{shift->getOperand(0), /*high=*/true, isSigned};
  }
  return NibbleOfByte{bytes, /*high=*/false, isSigned};
}

Value qforge::buildNibbleTableLookup(OpBuilder &builder, Location loc,
                                     NibbleOfByte nibble,
                                     VectorType resultType) {
  int64_t count = resultType.getNumElements();
  auto flatBytesType = VectorType::get({count}, builder.getI8Type());
  auto flatIndexType = VectorType::get({count}, builder.getI32Type());
  auto flatResultType = VectorType::get({count}, builder.getF32Type());
  auto chunkType = VectorType::get({kTableLanes}, builder.getF32Type());

  Value bytes = nibble.bytes;
  if (cast<VectorType>(bytes.getType()) != flatBytesType)
    bytes = vector::ShapeCastOp::create(builder, loc, flatBytesType, bytes);
  // vpermps reads the low 4 bits of each index lane: no mask.
  Value index = arith::ExtUIOp::create(builder, loc, flatIndexType, bytes);
  if (nibble.high) {
    Value four = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(flatIndexType,
                               builder.getI32IntegerAttr(4).getValue()));
    index = arith::ShRUIOp::create(builder, loc, index, four);
  }
  SmallVector<float> values;
  for (int64_t bits = 0; bits < kTableLanes; ++bits)
    values.push_back(nibbleValue(bits, nibble.isSigned));
  Value table = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(chunkType, ArrayRef<float>(values)));
  // Every lane is written below; the zeros only give the inserts a start.
  Value result = arith::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(flatResultType,
                             builder.getF32FloatAttr(0.0f).getValue()));
  for (int64_t offset = 0; offset < count; offset += kTableLanes) {
    Value chunk = vector::ExtractStridedSliceOp::create(
        builder, loc, index, ArrayRef<int64_t>{offset},
        ArrayRef<int64_t>{kTableLanes}, ArrayRef<int64_t>{1});
    Value looked = LLVM::CallIntrinsicOp::create(builder, loc, chunkType,
                                                 builder.getStringAttr(kLookup),
                                                 ValueRange{table, chunk})
                       .getResult(0);
    result = vector::InsertStridedSliceOp::create(builder, loc, looked, result,
                                                  ArrayRef<int64_t>{offset},
                                                  ArrayRef<int64_t>{1});
  }
  if (flatResultType != resultType)
    result = vector::ShapeCastOp::create(builder, loc, resultType, result);
  return result;
}

bool qforge::isNibbleTableLookup(LLVM::CallIntrinsicOp call) {
  return call.getIntrin() == kLookup;
}

LogicalResult qforge::expandNibbleTableLookup(RewriterBase &rewriter,
                                              LLVM::CallIntrinsicOp call) {
  if (!isNibbleTableLookup(call) || call.getArgs().size() != 2 ||
      call.getNumResults() != 1)
    return failure();
  Value index = call.getArgs()[1];
  auto indexType = dyn_cast<VectorType>(index.getType());
  auto resultType = dyn_cast<VectorType>(call.getResult(0).getType());
  if (!indexType || !resultType ||
      indexType != VectorType::get({kTableLanes}, rewriter.getI32Type()) ||
      resultType != VectorType::get({kTableLanes}, rewriter.getF32Type()))
    return failure();
  // Only the tables of the nibbles' values compute a conversion.
  DenseElementsAttr table;
  if (!matchPattern(call.getArgs()[0], m_Constant(&table)) ||
      table.getType() != resultType)
    return failure();
  auto isTableOf = [&](bool isSigned) {
    int64_t bits = 0;
    for (float value : table.getValues<float>())
      if (value != nibbleValue(bits++, isSigned))
        return false;
    return true;
  };
  bool isSigned = !isTableOf(/*isSigned=*/false);
  if (isSigned && !isTableOf(/*isSigned=*/true))
    return failure();

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(call);
  Location loc = call.getLoc();
  auto splat = [&](int32_t value) -> Value {
    return LLVM::ConstantOp::create(
        rewriter, loc, indexType,
        DenseElementsAttr::get(indexType,
                               rewriter.getI32IntegerAttr(value).getValue()));
  };
  if (isSigned) {
    // The low 4 bits sign-extended: shifted to the top, shifted back.
    Value top = LLVM::ShlOp::create(rewriter, loc, index, splat(28));
    Value nibbles = LLVM::AShrOp::create(rewriter, loc, top, splat(28));
    rewriter.replaceOpWithNewOp<LLVM::SIToFPOp>(call, resultType, nibbles);
    return success();
  }
  Value nibbles = LLVM::AndOp::create(rewriter, loc, index, splat(15));
  rewriter.replaceOpWithNewOp<LLVM::UIToFPOp>(call, resultType, nibbles);
  return success();
}
