//===- WholeInsertSlice.cpp - an insert covering its destination ----------===//
//
// A tensor.insert_slice at offset 0 with unit strides whose source fills the
// destination (the same sizes, up to the destination's unit dims) replaces
// every element: its result is the source, expanded by those unit dims.
// Upstream folds only the case of equal types. The rank-reducing case is
// what canonicalization leaves of an scf.forall of a single iteration (a
// batch of at most 8 tokens in one block): vectorized as is, it would copy
// the whole tensor through one vector (32 KiB for the seed's int8
// activation pack), which takes the lowering minutes.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
struct FoldWholeInsertSlice : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    RankedTensorType sourceType = insert.getSourceType();
    RankedTensorType destType = insert.getDestType();
    if (!sourceType.hasStaticShape() || !destType.hasStaticShape() ||
        sourceType.getRank() >= destType.getRank())
      return rewriter.notifyMatchFailure(insert, "not a static rank-reducing "
                                                 "insert");
    if (!areAllConstantIntValue(insert.getMixedOffsets(), 0) ||
        !areAllConstantIntValue(insert.getMixedStrides(), 1))
      return rewriter.notifyMatchFailure(insert, "not at offset 0, stride 1");
    std::optional<SmallVector<int64_t>> sizes =
        getConstantIntValues(insert.getMixedSizes());
    if (!sizes || ArrayRef<int64_t>(*sizes) != destType.getShape())
      return rewriter.notifyMatchFailure(insert, "does not cover the "
                                                 "destination");
    std::optional<SmallVector<ReassociationIndices>> reassociation =
        getReassociationIndicesForReshape(sourceType, destType);
    if (!reassociation)
      return rewriter.notifyMatchFailure(insert, "no reassociation");
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        insert, destType, insert.getSource(), *reassociation);
    return success();
  }
};
} // namespace

void qforge::populateFoldWholeInsertSlicePatterns(RewritePatternSet &patterns) {
  patterns.add<FoldWholeInsertSlice>(patterns.getContext());
}
