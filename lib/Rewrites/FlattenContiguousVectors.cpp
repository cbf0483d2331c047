//===- FlattenContiguousVectors.cpp - 1-D vectors for row-wise work -------===//

#include "Rewrites/FlattenContiguousVectors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/VectorInterfaces.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
/// The widest vector register of the targets (AVX-512).
constexpr int64_t kWholeRegisterBits = 512;

/// Upstream's flattening of `TransferOp`, applied only where its contiguity
/// check is defined (the header says why).
template <typename TransferOp>
struct GuardedFlattenTransfer : OpRewritePattern<TransferOp> {
  explicit GuardedFlattenTransfer(MLIRContext *ctx)
      : OpRewritePattern<TransferOp>(ctx), flatten(upstreamFlattening(ctx)),
        applicator(flatten) {
    applicator.applyDefaultCostModel();
  }
  LogicalResult matchAndRewrite(TransferOp transfer,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(transfer.getBase().getType());
    ArrayRef<int64_t> shape = transfer.getVectorType().getShape();
    int64_t leadingUnitDims =
        llvm::find_if(shape, [](int64_t dim) { return dim != 1; }) -
        shape.begin();
    int64_t sliceRank = static_cast<int64_t>(shape.size()) - leadingUnitDims;
    if (!memref || sliceRank < 1 || sliceRank > memref.getRank())
      return failure();
    // Rows of a whole vector register or more gain nothing from one long
    // vector; flattened, a block of 5 tokens' 5 x 32 result tile became a
    // <160 x float> that LLVM rebuilt lane by lane through the stack
    // (docs/benchmarks.md, stop 35). They stay rows, unrolled later.
    if (sliceRank > 1 &&
        shape.back() * transfer.getVectorType().getElementTypeBitWidth() >=
            kWholeRegisterBits)
      return failure();
    return applicator.matchAndRewrite(transfer, rewriter);
  }

private:
  static FrozenRewritePatternSet upstreamFlattening(MLIRContext *ctx) {
    RewritePatternSet patterns(ctx);
    vector::populateFlattenVectorTransferPatterns(patterns);
    return FrozenRewritePatternSet(std::move(patterns));
  }
  FrozenRewritePatternSet flatten;
  mutable PatternApplicator applicator;
};

/// The pattern populateFlattenTrailingContiguousReadPatterns adds (the
/// header says when and why).
struct FlattenTrailingContiguousRead
    : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType vector = read.getVectorType();
    int64_t rank = vector.getRank();
    if (!memref || rank < 2 || read.getMask() || vector.isScalable() ||
        !read.getPermutationMap().isMinorIdentity() ||
        llvm::any_of(read.getInBoundsValues(), [](bool in) { return !in; }))
      return rewriter.notifyMatchFailure(read, "not an in-bounds n-D read");
    int64_t bits = vector.getElementTypeBitWidth();
    if (vector.getShape().back() * bits >= kWholeRegisterBits)
      return rewriter.notifyMatchFailure(read, "rows of whole registers");
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(memref.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return rewriter.notifyMatchFailure(read, "no unit innermost stride");
    // Vector dim d reads memref dim lead + d. The trailing dims the read
    // takes whole (all but the first of the run: read from index 0 over
    // the memref's full static size) and that lie contiguously in memory.
    int64_t lead = memref.getRank() - rank;
    ArrayRef<int64_t> sizes = memref.getShape();
    ArrayRef<int64_t> shape = vector.getShape();
    OperandRange indices = read.getIndices();
    int64_t first = rank - 1;
    int64_t run = shape.back();
    while (first > 0) {
      int64_t inner = lead + first;
      if (ShapedType::isDynamic(sizes[inner]) || shape[first] != sizes[inner] ||
          !matchPattern(indices[inner], m_Zero()) ||
          ShapedType::isDynamic(strides[inner - 1]) ||
          strides[inner - 1] != strides[inner] * sizes[inner] ||
          run * shape[first - 1] * bits > kWholeRegisterBits)
        break;
      --first;
      run *= shape[first];
    }
    // Nothing to collapse, or everything: upstream's flattening reads a
    // wholly contiguous slice.
    if (first == rank - 1 ||
        llvm::all_of(shape.take_front(first),
                     [](int64_t size) { return size == 1; }))
      return rewriter.notifyMatchFailure(read, "no run of trailing dims");
    Location loc = read.getLoc();
    SmallVector<ReassociationIndices> groups;
    for (int64_t dim = 0; dim < lead + first; ++dim)
      groups.push_back({dim});
    groups.emplace_back();
    for (int64_t dim = lead + first; dim < memref.getRank(); ++dim)
      groups.back().push_back(dim);
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(memref, groups))
      return rewriter.notifyMatchFailure(read, "not collapsible");
    Value collapsed =
        memref::CollapseShapeOp::create(rewriter, loc, read.getBase(), groups);
    // The run starts at its first dim's index times that dim's stride (the
    // later indices are zero; contiguous, the stride is what follows it).
    int64_t runStride = strides[lead + first];
    SmallVector<Value> newIndices(indices.take_front(lead + first));
    Value start = indices[lead + first];
    if (runStride != 1)
      start = arith::MulIOp::create(
          rewriter, loc, start,
          arith::ConstantIndexOp::create(rewriter, loc, runStride));
    newIndices.push_back(start);
    SmallVector<int64_t> rowShape(shape.take_front(first));
    rowShape.push_back(run);
    auto rowType = VectorType::get(rowShape, vector.getElementType());
    SmallVector<bool> inBounds(rowShape.size(), true);
    Value rows = vector::TransferReadOp::create(
        rewriter, loc, rowType, collapsed, newIndices,
        /*padding=*/read.getPadding(), inBounds);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(read, vector, rows);
    return success();
  }
};
} // namespace

void qforge::populateFlattenTrailingContiguousReadPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FlattenTrailingContiguousRead>(patterns.getContext());
}

void qforge::populateGuardedFlattenTransferPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<GuardedFlattenTransfer<vector::TransferReadOp>,
               GuardedFlattenTransfer<vector::TransferWriteOp>>(ctx);
}

LogicalResult qforge::flattenContiguousVectors(Operation *root,
                                               bool loopCarried,
                                               bool bytesOnly) {
  MLIRContext *context = root->getContext();
  auto isByteVector = [](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getElementType().isInteger(8);
  };
  {
    RewritePatternSet patterns(context);
    populateGuardedFlattenTransferPatterns(patterns);
    // A block of narrow contiguous rows read a row at a time here too: a
    // pack's shuffles of whole rows (TransposeAsShuffle.cpp) then take the
    // rows as read, not as pieces put together.
    populateFlattenTrailingContiguousReadPatterns(patterns);
    vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
    if (!bytesOnly) {
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return failure();
    } else {
      SmallVector<Operation *> transfers;
      root->walk([&](VectorTransferOpInterface transfer) {
        if (isByteVector(transfer.getVectorType()))
          transfers.push_back(transfer);
      });
      if (failed(applyOpPatternsGreedily(transfers, std::move(patterns))))
        return failure();
    }
  }
  {
    TypeConverter typeConverter;
    ConversionTarget target(*context);
    vector::populateForVectorLinearize(typeConverter, target);
    // Only what the base patterns rewrite must be 1-D; other n-D ops (a
    // multi_reduction, a transfer not flattened) keep their shapes and
    // read or give them through shape casts.
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) -> std::optional<bool> {
          bool linearizable = op->hasTrait<OpTrait::ConstantLike>() ||
                              op->hasTrait<OpTrait::Vectorizable>() ||
                              isa<vector::BitCastOp>(op);
          auto otherVector = [&](Type type) {
            return isa<VectorType>(type) && !isByteVector(type);
          };
          if (bytesOnly && (llvm::any_of(op->getOperandTypes(), otherVector) ||
                            llvm::any_of(op->getResultTypes(), otherVector)))
            linearizable = false;
          return !linearizable || typeConverter.isLegal(op);
        });
    RewritePatternSet patterns(context);
    vector::populateVectorLinearizeBasePatterns(typeConverter, target,
                                                patterns);
    if (loopCarried)
      scf::populateSCFStructuralTypeConversionsAndLegality(typeConverter,
                                                           patterns, target);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return failure();
  }
  RewritePatternSet patterns(context);
  vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
  vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(root, std::move(patterns));
}
