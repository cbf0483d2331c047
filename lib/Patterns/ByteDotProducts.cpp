//===- ByteDotProducts.cpp - recognize 4-byte lane sums -------------------===//

#include "Patterns/ByteDotProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

/// The number of lanes (4, 8 or 16) when `reduction` is an unmasked sum
/// over the innermost dim of size 4 of `elementType` elements, whose other
/// non-unit dims (the lanes, flattened in order) are not reduced; else 0.
static int64_t fourElementLaneSumLanes(vector::MultiDimReductionOp reduction,
                                       Type elementType) {
  // vpdpbusd has no mask: a masked reduction must not sum masked-off lanes.
  if (reduction.getKind() != vector::CombiningKind::ADD || reduction.isMasked())
    return 0;
  VectorType source = reduction.getSourceVectorType();
  int64_t rank = source.getRank();
  if (source.isScalable() || rank < 2 ||
      source.getElementType() != elementType ||
      source.getDimSize(rank - 1) != 4 ||
      !isa<VectorType>(reduction.getDestType()))
    return 0;
  SmallVector<bool> reduced(rank, false);
  for (int64_t dim : reduction.getReductionDims())
    reduced[dim] = true;
  if (!reduced[rank - 1])
    return 0;
  // The lanes may span several dims (a two-level accumulator's lane
  // groups times its lanes): they flatten in order, as the bytes do.
  int64_t lanes = 1;
  for (int64_t dim = 0; dim < rank - 1; ++dim) {
    int64_t size = source.getDimSize(dim);
    if (size == 1)
      continue;
    if (reduced[dim])
      return 0;
    lanes *= size;
  }
  if (lanes != 4 && lanes != 8 && lanes != 16)
    return 0;
  return lanes;
}

/// `value` without a broadcast that only adds leading unit dims (same
/// number of elements), or a shape cast that keeps an innermost dim of 4
/// (the same elements in the same order, each lane's 4 still innermost: a
/// lane group's product in the vectorizer's shape); null otherwise.
static Value withoutUnitBroadcast(Value value) {
  if (auto cast = value.getDefiningOp<vector::ShapeCastOp>()) {
    VectorType from = cast.getSourceVectorType();
    if (from.getRank() == 0 || from.getShape().back() != 4)
      return nullptr;
    return cast.getSource();
  }
  auto broadcast = value.getDefiningOp<vector::BroadcastOp>();
  if (!broadcast)
    return value;
  auto from = dyn_cast<VectorType>(broadcast.getSourceType());
  auto to = cast<VectorType>(broadcast.getResultVectorType());
  if (!from || from.getNumElements() != to.getNumElements())
    return nullptr;
  return broadcast.getSource();
}

/// The two byte operands of `reduction`'s products, extended as
/// `firstSigned` and `secondSigned` say (in either order), in the shapes
/// matchFourByteLaneSum documents.
static std::optional<std::pair<Value, Value>>
matchFourByteProducts(vector::MultiDimReductionOp reduction, bool firstSigned,
                      bool secondSigned) {
  int64_t lanes = fourElementLaneSumLanes(
      reduction, IntegerType::get(reduction.getContext(), 32));
  if (!lanes)
    return std::nullopt;

  Value products = withoutUnitBroadcast(reduction.getSource());
  auto multiply = products ? products.getDefiningOp<arith::MulIOp>() : nullptr;
  if (!multiply)
    return std::nullopt;
  // The bytes of one operand of the multiply, either
  //  - every lane's 4 (lanes x 4 bytes), extended, maybe shape-cast into the
  //    iteration space and broadcast to more unit dims, or
  //  - the same 4 bytes for every lane (one activation value of each lane's
  //    4 k, broadcast across the rows of packed weights): extended as
  //    [1.., 4], then broadcast along the lanes, the 4 innermost in the
  //    multiply too.
  auto bytesOf = [&](Value operand, bool isSigned) -> Value {
    Value value = operand;
    bool shared = false;
    if (auto broadcast = value.getDefiningOp<vector::BroadcastOp>()) {
      auto from = dyn_cast<VectorType>(broadcast.getSourceType());
      if (!from)
        return nullptr;
      shared = from.getNumElements() != lanes * 4;
      value = broadcast.getSource();
    }
    if (auto cast = value.getDefiningOp<vector::ShapeCastOp>(); cast && !shared)
      value = cast.getSource();
    Value narrow;
    if (isSigned) {
      if (auto ext = value.getDefiningOp<arith::ExtSIOp>())
        narrow = ext.getIn();
    } else if (auto ext = value.getDefiningOp<arith::ExtUIOp>()) {
      narrow = ext.getIn();
    }
    auto type = narrow ? dyn_cast<VectorType>(narrow.getType()) : nullptr;
    if (!type || !type.getElementType().isInteger(8))
      return nullptr;
    if (!shared)
      return type.getNumElements() == lanes * 4 ? narrow : nullptr;
    auto operandType = cast<VectorType>(operand.getType());
    if (type.getNumElements() != 4 || type.getShape().back() != 4 ||
        operandType.getShape().back() != 4)
      return nullptr;
    return narrow;
  };
  for (auto [first, second] :
       {std::pair(multiply.getLhs(), multiply.getRhs()),
        std::pair(multiply.getRhs(), multiply.getLhs())}) {
    Value firstBytes = bytesOf(first, firstSigned),
          secondBytes = bytesOf(second, secondSigned);
    if (firstBytes && secondBytes)
      return std::pair(firstBytes, secondBytes);
  }
  return std::nullopt;
}

std::optional<std::pair<Value, Value>>
qforge::matchFourByteLaneSum(vector::MultiDimReductionOp reduction) {
  return matchFourByteProducts(reduction, /*firstSigned=*/false,
                               /*secondSigned=*/true);
}

/// The bytes `arith.maxsi(y, c)` clamps and c, a constant splat of at
/// least -127; nullopt otherwise.
static std::optional<std::pair<Value, int64_t>>
getClampedAbove127(Value bytes) {
  auto clamp = bytes.getDefiningOp<arith::MaxSIOp>();
  if (!clamp)
    return std::nullopt;
  for (auto [value, bound] : {std::pair(clamp.getLhs(), clamp.getRhs()),
                              std::pair(clamp.getRhs(), clamp.getLhs())}) {
    DenseIntElementsAttr constant;
    if (!matchPattern(bound, m_Constant(&constant)) || !constant.isSplat())
      continue;
    int64_t limit = constant.getSplatValue<APInt>().getSExtValue();
    if (limit >= -127)
      return std::pair(value, limit);
  }
  return std::nullopt;
}

std::optional<qforge::ClampedByteProducts>
qforge::matchFourClampedByteLaneSum(vector::MultiDimReductionOp reduction) {
  std::optional<std::pair<Value, Value>> bytes = matchFourByteProducts(
      reduction, /*firstSigned=*/true, /*secondSigned=*/true);
  if (!bytes)
    return std::nullopt;
  for (auto [weights, clampedBytes] :
       {*bytes, std::pair(bytes->second, bytes->first)})
    if (std::optional<std::pair<Value, int64_t>> clamp =
            getClampedAbove127(clampedBytes))
      return ClampedByteProducts{weights, clamp->first, clamp->second};
  return std::nullopt;
}

std::optional<Value>
qforge::matchFourSignedByteLaneSum(vector::MultiDimReductionOp reduction) {
  MLIRContext *ctx = reduction.getContext();
  Value values = withoutUnitBroadcast(reduction.getSource());
  if (!values)
    return std::nullopt;
  Value narrow;
  if (fourElementLaneSumLanes(reduction, IntegerType::get(ctx, 32))) {
    if (auto ext = values.getDefiningOp<arith::ExtSIOp>())
      narrow = ext.getIn();
  } else if (fourElementLaneSumLanes(reduction, Float32Type::get(ctx))) {
    if (auto convert = values.getDefiningOp<arith::SIToFPOp>())
      narrow = convert.getIn();
  }
  if (!narrow || !getElementTypeOrSelf(narrow.getType()).isInteger(8))
    return std::nullopt;
  return narrow;
}

Value qforge::buildLaneBytes(OpBuilder &builder, Location loc, Value bytes,
                             int64_t lanes, bool asWords) {
  Type i8 = builder.getI8Type();
  auto type = cast<VectorType>(bytes.getType());
  if (type.getNumElements() != lanes * 4 && asWords) {
    if (type.getRank() != 1)
      bytes = vector::ShapeCastOp::create(builder, loc,
                                          VectorType::get({4}, i8), bytes);
    Type i32 = builder.getI32Type();
    Value word = vector::BitCastOp::create(builder, loc,
                                           VectorType::get({1}, i32), bytes);
    Value words = vector::BroadcastOp::create(
        builder, loc, VectorType::get({lanes}, i32), word);
    return vector::BitCastOp::create(builder, loc,
                                     VectorType::get({lanes * 4}, i8), words);
  }
  if (type.getNumElements() != lanes * 4) {
    // The shared bytes may come as [1.., 4] of any rank, which broadcasts
    // to [lanes, 4] only from rank 2 or less: as vector<4xi8> first then.
    if (type.getRank() > 2)
      bytes = vector::ShapeCastOp::create(builder, loc,
                                          VectorType::get({4}, i8), bytes);
    bytes = vector::BroadcastOp::create(builder, loc,
                                        VectorType::get({lanes, 4}, i8), bytes);
  }
  return vector::ShapeCastOp::create(builder, loc,
                                     VectorType::get({lanes * 4}, i8), bytes);
}

Value qforge::buildVpdpbusd(OpBuilder &builder, Location loc, Value acc,
                            Value unsignedBytes, Value signedBytes) {
  auto accType = cast<VectorType>(acc.getType());
  std::string name = "llvm.x86.avx512.vpdpbusd." +
                     std::to_string(accType.getNumElements() * 32);
  return LLVM::CallIntrinsicOp::create(
             builder, loc, accType, builder.getStringAttr(name),
             ValueRange{acc, unsignedBytes, signedBytes})
      .getResult(0);
}
