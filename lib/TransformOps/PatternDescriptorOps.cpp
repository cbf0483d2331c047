//===- PatternDescriptorOps.cpp - transform.apply_patterns.qforge.* -------===//
//
// Each descriptor op adds one pattern set from lib/Patterns to the set that an
// enclosing `transform.apply_patterns` applies.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"
#include "Rewrites/PackPropagation.h"
#include "TransformOps/QForgeTransformOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"

using namespace mlir;

void transform::ApplyFoldIntToFloatCastsPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateFoldIntToFloatCastsPatterns(patterns);
}

void transform::ApplyFoldBroadcastTransposePatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateFoldBroadcastTransposePatterns(patterns);
}

void transform::ApplyFoldWholeInsertSlicePatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateFoldWholeInsertSlicePatterns(patterns);
}

void transform::ApplyReassociateFPReductionsPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateReassociateFPReductionsPatterns(patterns);
}

void transform::ApplyReadPastDisjointWritesPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateReadPastDisjointWritesPatterns(patterns);
}

void transform::ApplyReadWrittenElementPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateReadWrittenElementPatterns(patterns, getMaxElements());
}

void transform::ApplyTransposeAsShufflePatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateTransposeAsShufflePatterns(patterns);
}

void transform::ApplyX86Int8DotProductsPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateX86Int8DotProductsPatterns(patterns);
}

void transform::ApplyX86NibbleTablesPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateX86NibbleTablesPatterns(patterns);
}

void transform::ApplyFoldReshapesByExpansionPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  linalg::populateFoldReshapeOpsByExpansionPatterns(
      patterns, [](OpOperand *fused) {
        Operation *producer = fused->get().getDefiningOp();
        return isa_and_nonnull<tensor::CollapseShapeOp>(producer) &&
               isa<linalg::GenericOp>(fused->getOwner());
      });
}

void transform::ApplyBubblePackThroughDequantPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populateBubblePackThroughDequantPatterns(patterns);
}

void transform::ApplyPadPacksWithZerosPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  qforge::populatePadPacksWithZerosPatterns(patterns);
}

void transform::ApplyScalarizeExtractedReadsPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  // Upstream's set without its one-element write pattern, which does not
  // check in_bounds: an out-of-bounds write would become an unconditional
  // store. Its read patterns refuse masked or out-of-bounds reads.
  RewritePatternSet upstream(patterns.getContext());
  vector::populateScalarVectorTransferLoweringPatterns(
      upstream, /*benefit=*/1, /*allowMultipleUses=*/true);
  for (std::unique_ptr<RewritePattern> &pattern :
       upstream.getNativePatterns()) {
    std::optional<OperationName> root = pattern->getRootKind();
    if (root &&
        root->getStringRef() == vector::TransferWriteOp::getOperationName())
      continue;
    patterns.add(std::move(pattern));
  }
}

void transform::ApplyFoldIntoPacksPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  linalg::populateFoldIntoPackAndUnpackPatterns(patterns);
  linalg::populateSimplifyPackAndUnpackPatterns(patterns);
  qforge::populatePackAsReshapePatterns(patterns);
}
