//===- FlattenContiguousVectors.cpp - 1-D vectors for row-wise work -------===//

#include "Rewrites/FlattenContiguousVectors.h"

#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
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
} // namespace

void qforge::populateGuardedFlattenTransferPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<GuardedFlattenTransfer<vector::TransferReadOp>,
               GuardedFlattenTransfer<vector::TransferWriteOp>>(ctx);
}

LogicalResult qforge::flattenContiguousVectors(Operation *root,
                                               bool loopCarried) {
  MLIRContext *context = root->getContext();
  {
    RewritePatternSet patterns(context);
    populateGuardedFlattenTransferPatterns(patterns);
    vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return failure();
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
