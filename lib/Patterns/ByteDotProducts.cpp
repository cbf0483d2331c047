//===- ByteDotProducts.cpp - recognize 4-byte lane sums -------------------===//

#include "Patterns/ByteDotProducts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

std::optional<std::pair<Value, Value>>
qforge::matchFourByteLaneSum(vector::MultiDimReductionOp reduction) {
  // vpdpbusd has no mask: a masked reduction must not sum masked-off lanes.
  if (reduction.getKind() != vector::CombiningKind::ADD || reduction.isMasked())
    return std::nullopt;
  VectorType source = reduction.getSourceVectorType();
  int64_t rank = source.getRank();
  if (source.isScalable() || rank < 2 ||
      !source.getElementType().isInteger(32) ||
      source.getDimSize(rank - 1) != 4 ||
      !isa<VectorType>(reduction.getDestType()))
    return std::nullopt;
  SmallVector<bool> reduced(rank, false);
  for (int64_t dim : reduction.getReductionDims())
    reduced[dim] = true;
  if (!reduced[rank - 1])
    return std::nullopt;
  int64_t lanes = 1;
  for (int64_t dim = 0; dim < rank - 1; ++dim) {
    int64_t size = source.getDimSize(dim);
    if (size == 1)
      continue;
    if (reduced[dim] || lanes != 1)
      return std::nullopt;
    lanes = size;
  }
  if (lanes != 4 && lanes != 8 && lanes != 16)
    return std::nullopt;

  // Look through a broadcast that only adds leading unit dims.
  Value products = reduction.getSource();
  if (auto broadcast = products.getDefiningOp<vector::BroadcastOp>()) {
    auto from = dyn_cast<VectorType>(broadcast.getSourceType());
    if (!from || from.getNumElements() != source.getNumElements())
      return std::nullopt;
    products = broadcast.getSource();
  }
  auto multiply = products.getDefiningOp<arith::MulIOp>();
  if (!multiply)
    return std::nullopt;
  auto bytesOf = [](Value value, bool isSigned) -> Value {
    // The same 4 bytes for every lane (one activation value of each lane's
    // 4 k, broadcast across the rows of packed weights): extended, then
    // broadcast.
    if (auto broadcast = value.getDefiningOp<vector::BroadcastOp>())
      value = broadcast.getSource();
    Value narrow;
    if (isSigned) {
      if (auto ext = value.getDefiningOp<arith::ExtSIOp>())
        narrow = ext.getIn();
    } else if (auto ext = value.getDefiningOp<arith::ExtUIOp>()) {
      narrow = ext.getIn();
    }
    if (!narrow || !getElementTypeOrSelf(narrow.getType()).isInteger(8))
      return nullptr;
    return narrow;
  };
  for (auto [u, s] : {std::pair(multiply.getLhs(), multiply.getRhs()),
                      std::pair(multiply.getRhs(), multiply.getLhs())}) {
    Value unsignedBytes = bytesOf(u, false), signedBytes = bytesOf(s, true);
    if (unsignedBytes && signedBytes)
      return std::pair(unsignedBytes, signedBytes);
  }
  return std::nullopt;
}
