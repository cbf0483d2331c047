//===- FlattenContiguousVectors.cpp - 1-D vectors for row-wise work -------===//

#include "Rewrites/FlattenContiguousVectors.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

LogicalResult qforge::flattenContiguousVectors(Operation *root) {
  MLIRContext *context = root->getContext();
  {
    RewritePatternSet patterns(context);
    vector::populateFlattenVectorTransferPatterns(patterns);
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
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      return failure();
  }
  RewritePatternSet patterns(context);
  vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
  vector::BroadcastOp::getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(root, std::move(patterns));
}
