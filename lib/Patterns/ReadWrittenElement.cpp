//===- ReadWrittenElement.cpp - a point read of a vector just written ----===//
//
// A strategy that decodes a super-block's eight sub-block scales as one
// vector (transforms/decode-two-level-*.mlir) writes that vector into a
// small tensor, and each unrolled sub-block then reads its one element back
// at constant indices. Upstream folding forwards a write to a read of the
// same box only; left alone, the tensor bufferizes into a buffer allocated
// per super-block. This pattern replaces such a point read (a
// vector.transfer_read of one element, 0-d, broadcast, or a vector of one
// element) of a tensor written by an unmasked vector.transfer_write whose box
// holds that element by the element extracted from the written vector, so
// the decoded scales stay in registers and the tensor is dead.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"
#include "Patterns/PlainTransfer.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
struct ReadWrittenElement : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
    auto maskable = dyn_cast<vector::MaskableOpInterface>(read.getOperation());
    if (!write || read.getMask() || (maskable && maskable.isMasked()) ||
        !qforge::isPlainBox(write))
      return rewriter.notifyMatchFailure(read, "not a read of a plain write");
    auto tensorType = dyn_cast<RankedTensorType>(read.getBase().getType());
    if (!tensorType || !tensorType.hasStaticShape())
      return rewriter.notifyMatchFailure(read, "not a static tensor");
    // One element: every vector dim the read takes from the tensor has one
    // lane (the others broadcast it).
    AffineMap readMap = read.getPermutationMap();
    for (auto [dim, expr] : llvm::enumerate(readMap.getResults()))
      if (isa<AffineDimExpr>(expr) && read.getVectorType().getDimSize(dim) != 1)
        return rewriter.notifyMatchFailure(read, "reads more than one element");
    std::optional<SmallVector<int64_t>> at =
        getConstantIntValues(getAsOpFoldResult(read.getIndices()));
    std::optional<SmallVector<int64_t>> origin =
        getConstantIntValues(getAsOpFoldResult(write.getIndices()));
    if (!at || !origin)
      return rewriter.notifyMatchFailure(read, "indices not constant");
    // The element's place in the written vector: its minor dims offset from
    // the write's origin, its leading dims the origin's.
    int64_t rank = tensorType.getRank();
    int64_t vectorRank = write.getVectorType().getRank();
    ArrayRef<int64_t> vectorShape = write.getVectorType().getShape();
    SmallVector<int64_t> position;
    for (int64_t dim = 0; dim < rank; ++dim) {
      if ((*at)[dim] < 0 || (*at)[dim] >= tensorType.getDimSize(dim))
        return rewriter.notifyMatchFailure(read, "element out of bounds");
      int64_t offset = (*at)[dim] - (*origin)[dim];
      int64_t vectorDim = dim - (rank - vectorRank);
      if (vectorDim < 0) {
        if (offset != 0)
          return rewriter.notifyMatchFailure(read, "element not written");
        continue;
      }
      if (offset < 0 || offset >= vectorShape[vectorDim])
        return rewriter.notifyMatchFailure(read, "element not written");
      position.push_back(offset);
    }
    Value element = vector::ExtractOp::create(rewriter, read.getLoc(),
                                              write.getVector(), position);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     element);
    return success();
  }
};
} // namespace

void qforge::populateReadWrittenElementPatterns(RewritePatternSet &patterns) {
  patterns.add<ReadWrittenElement>(patterns.getContext());
}
