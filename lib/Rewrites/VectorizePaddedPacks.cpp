//===- VectorizePaddedPacks.cpp - packs of partial tiles, vectorized ------===//

#include "Rewrites/VectorizePaddedPacks.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

FailureOr<SmallVector<int64_t>>
qforge::getPaddedPackVectorSizes(linalg::PackOp pack) {
  RankedTensorType dest = pack.getDestType();
  if (!dest.hasStaticShape())
    return failure();
  // A dynamic source without a padding value has no value for the lanes
  // past its end.
  if (!pack.getSourceType().hasStaticShape() && !pack.getPaddingValue())
    return failure();
  SmallVector<int64_t> sizes(dest.getShape());
  if (failed(linalg::vectorizeOpPrecondition(pack, sizes)))
    return failure();
  return sizes;
}

LogicalResult qforge::vectorizePaddedPack(RewriterBase &rewriter,
                                          linalg::PackOp pack,
                                          ArrayRef<int64_t> vectorSizes) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(pack);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, pack, vectorSizes);
  if (failed(result))
    return failure();
  rewriter.replaceOp(pack, result->replacements);
  return success();
}
