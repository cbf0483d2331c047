//===- NibbleTables.cpp - 4-bit weights to f32 by a 16-entry table --------===//
//
// Converting a nibble to f32 the generic way takes a widening (vpmovzxbd)
// and a conversion (vcvtdq2ps) per 16 weights, after a mask or shift of the
// bytes and the extracts that feed the widening 16 bytes at a time. A
// 16-entry table of the nibbles' f32 values does it in one vpermps per 16
// weights, on the byte widened once for both of its nibbles.
//
//===----------------------------------------------------------------------===//

#include "Patterns/NibbleTables.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

/// vpermps's lanes: one 512-bit register of f32.
static constexpr int64_t kTableLanes = 16;
/// vpermps of 512 bits, data first, index second.
static constexpr llvm::StringLiteral kLookup = "llvm.x86.avx512.permvar.sf.512";

std::optional<qforge::NibbleOfByte>
qforge::matchNibbleToFloat(arith::UIToFPOp convert) {
  auto resultType = dyn_cast<VectorType>(convert.getType());
  if (!resultType || resultType.isScalable() ||
      !resultType.getElementType().isF32() ||
      resultType.getNumElements() % kTableLanes != 0)
    return std::nullopt;
  auto trunc = convert.getIn().getDefiningOp<arith::TruncIOp>();
  if (!trunc || !getElementTypeOrSelf(trunc.getType()).isInteger(4) ||
      !getElementTypeOrSelf(trunc.getIn().getType()).isInteger(8))
    return std::nullopt;
  Value bytes = trunc.getIn();
  // A shift by 4 picks the high nibble: it is done on the widened lanes, so
  // that both nibbles of a byte share one widening.
  if (auto shift = bytes.getDefiningOp<arith::ShRUIOp>()) {
    APInt amount;
    if (matchPattern(shift.getRhs(), m_ConstantInt(&amount)) && amount == 4)
      return NibbleOfByte{shift.getLhs(), /*high=*/true};
  }
  return NibbleOfByte{bytes, /*high=*/false};
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
  Value index = arith::ExtUIOp::create(builder, loc, flatIndexType, bytes);
  if (nibble.high) {
    Value four = arith::ConstantOp::create(
        builder, loc,
        DenseElementsAttr::get(flatIndexType,
                               builder.getI32IntegerAttr(4).getValue()));
    index = arith::ShRUIOp::create(builder, loc, index, four);
  }
  SmallVector<float> values;
  for (int64_t i = 0; i < kTableLanes; ++i)
    values.push_back(static_cast<float>(i));
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
    Value values = LLVM::CallIntrinsicOp::create(builder, loc, chunkType,
                                                 builder.getStringAttr(kLookup),
                                                 ValueRange{table, chunk})
                       .getResult(0);
    result = vector::InsertStridedSliceOp::create(builder, loc, values, result,
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
  // Only the table of the nibbles' values computes uitofp(index & 15).
  DenseElementsAttr table;
  if (!matchPattern(call.getArgs()[0], m_Constant(&table)) ||
      table.getNumElements() != kTableLanes || !table.getElementType().isF32())
    return failure();
  int64_t expected = 0;
  for (float value : table.getValues<float>())
    if (value != static_cast<float>(expected++))
      return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(call);
  Location loc = call.getLoc();
  Value index = call.getArgs()[1];
  auto indexType = cast<VectorType>(index.getType());
  Value mask = LLVM::ConstantOp::create(
      rewriter, loc, indexType,
      DenseElementsAttr::get(indexType,
                             rewriter.getI32IntegerAttr(15).getValue()));
  Value nibbles = LLVM::AndOp::create(rewriter, loc, index, mask);
  rewriter.replaceOpWithNewOp<LLVM::UIToFPOp>(call, call.getResult(0).getType(),
                                              nibbles);
  return success();
}
