//===- FoldUnitDims.cpp - fold unit dims, keeping a kernel's --------------===//

#include "Rewrites/FoldUnitDims.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

using namespace mlir;

void qforge::foldUnitExtentDims(Operation *root) {
  linalg::ControlDropUnitDims options;
  auto everyDim = options.controlFn;
  options.controlFn = [everyDim](Operation *op) -> SmallVector<unsigned> {
    auto named =
        op->getAttrOfType<DenseI64ArrayAttr>(kFoldableUnitDimsAttrName);
    if (!named || !isa<linalg::GenericOp>(op))
      return everyDim(op);
    SmallVector<unsigned> dims;
    for (int64_t dim : named.asArrayRef())
      if (dim >= 0 && dim < cast<linalg::GenericOp>(op).getNumLoops())
        dims.push_back(dim);
    return dims;
  };
  MLIRContext *context = root->getContext();
  // As upstream's pass: the folds by a walk, which visits each op once (a
  // generic built by a fold, without the attribute, is not folded again),
  // then the reshapes they leave simplified.
  {
    RewritePatternSet patterns(context);
    linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
    walkAndApplyPatterns(root, std::move(patterns));
  }
  {
    RewritePatternSet patterns(context);
    linalg::populateMoveInitOperandsToInputPattern(patterns);
    linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(patterns,
                                                               options);
    (void)applyPatternsGreedily(root, std::move(patterns));
  }
  root->walk([](Operation *op) { op->removeAttr(kFoldableUnitDimsAttrName); });
}
