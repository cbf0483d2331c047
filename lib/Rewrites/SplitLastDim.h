//===- SplitLastDim.h - a group's elements split into vector steps -*- C++
//-*-===//
#ifndef QFORGE_REWRITES_SPLITLASTDIM_H
#define QFORGE_REWRITES_SPLITLASTDIM_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// `value` with its last dim (a group's elements) split by a free
/// tensor.expand_shape into (size / (lanes · bytes), lanes), and `bytes`
/// innermost when more than one (the bytes of one i32 lane of an int8 dot
/// product): the factorings' (j, l) or (j, l, q).
inline mlir::Value splitLastDim(mlir::RewriterBase &rewriter,
                                mlir::Location loc, mlir::Value value,
                                int64_t lanes, int64_t bytes = 1) {
  using namespace mlir;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= lanes * bytes;
  shape.push_back(lanes);
  ReassociationIndices split = {type.getRank() - 1, type.getRank()};
  if (bytes > 1) {
    shape.push_back(bytes);
    split.push_back(type.getRank() + 1);
  }
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0, e = type.getRank() - 1; i < e; ++i)
    groups.push_back({i});
  groups.push_back(split);
  return tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups);
}

} // namespace qforge

#endif // QFORGE_REWRITES_SPLITLASTDIM_H
