//===- ReadWrittenElement.cpp - a point read of a vector just written ----===//
//
// A strategy that decodes a super-block's eight sub-block scales as one
// vector (transforms/decode-two-level-*.mlir) writes that vector into a
// small tensor, and each unrolled sub-block then reads its one element back
// at constant indices (with lane groups, a few: q4_K's two chunks of one
// 64-byte slice). Upstream folding forwards a write to a read of the same
// box only; left alone, the tensor bufferizes into a buffer allocated per
// super-block. This pattern replaces such a read (a vector.transfer_read
// of one element -- 0-d, broadcast, or a vector of one element -- or, when
// asked, of a few through a minor identity map, of a tensor written by an
// unmasked vector.transfer_write whose box holds them) by the elements
// extracted from the written vector, so the decoded scales stay in
// registers and the tensor is dead.
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
  ReadWrittenElement(MLIRContext *context, int64_t maxElements)
      : OpRewritePattern(context), maxElements(maxElements) {}
  /// The most elements a minor identity read takes this way, one extract
  /// each (1: point reads only).
  int64_t maxElements;
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
    // The elements read: one (broadcast along the read's other dims), or
    // at most maxElements through a minor identity map (a lane group's
    // sub-block scales); each taken from the written vector.
    AffineMap readMap = read.getPermutationMap();
    VectorType readType = read.getVectorType();
    int64_t readElements = 1;
    for (auto [dim, expr] : llvm::enumerate(readMap.getResults()))
      if (isa<AffineDimExpr>(expr))
        readElements *= readType.getDimSize(dim);
    if (readElements > 1 &&
        (readElements > maxElements || !readMap.isMinorIdentity()))
      return rewriter.notifyMatchFailure(read, "reads more than one element");
    std::optional<SmallVector<int64_t>> at =
        getConstantIntValues(getAsOpFoldResult(read.getIndices()));
    std::optional<SmallVector<int64_t>> origin =
        getConstantIntValues(getAsOpFoldResult(write.getIndices()));
    if (!at || !origin)
      return rewriter.notifyMatchFailure(read, "indices not constant");
    // An element's place in the written vector: its minor dims offset from
    // the write's origin, its leading dims the origin's.
    int64_t rank = tensorType.getRank();
    int64_t vectorRank = write.getVectorType().getRank();
    ArrayRef<int64_t> vectorShape = write.getVectorType().getShape();
    auto positionOf =
        [&](ArrayRef<int64_t> index) -> std::optional<SmallVector<int64_t>> {
      SmallVector<int64_t> position;
      for (int64_t dim = 0; dim < rank; ++dim) {
        if (index[dim] < 0 || index[dim] >= tensorType.getDimSize(dim))
          return std::nullopt;
        int64_t offset = index[dim] - (*origin)[dim];
        int64_t vectorDim = dim - (rank - vectorRank);
        if (vectorDim < 0) {
          if (offset != 0)
            return std::nullopt;
          continue;
        }
        if (offset < 0 || offset >= vectorShape[vectorDim])
          return std::nullopt;
        position.push_back(offset);
      }
      return position;
    };
    // One extract per element, in the read's order.
    SmallVector<int64_t> readDims, readShape;
    for (auto [dim, expr] : llvm::enumerate(readMap.getResults()))
      if (auto dimExpr = dyn_cast<AffineDimExpr>(expr)) {
        readDims.push_back(dimExpr.getPosition());
        readShape.push_back(readType.getDimSize(dim));
      }
    SmallVector<Value> elements;
    for (int64_t linear = 0; linear < readElements; ++linear) {
      SmallVector<int64_t> index(*at);
      for (int64_t i = readDims.size() - 1, rest = linear; i >= 0; --i) {
        index[readDims[i]] += rest % readShape[i];
        rest /= readShape[i];
      }
      std::optional<SmallVector<int64_t>> position = positionOf(index);
      if (!position)
        return rewriter.notifyMatchFailure(read, "element not written");
      elements.push_back(vector::ExtractOp::create(
          rewriter, read.getLoc(), write.getVector(), *position));
    }
    if (elements.size() == 1) {
      rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, readType,
                                                       elements.front());
      return success();
    }
    // Several elements: only a minor identity read (no broadcast, no
    // permutation) takes them, as one vector of its type.
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(read, readType,
                                                        elements);
    return success();
  }
};
} // namespace

void qforge::populateReadWrittenElementPatterns(RewritePatternSet &patterns,
                                                int64_t maxElements) {
  patterns.add<ReadWrittenElement>(patterns.getContext(), maxElements);
}
