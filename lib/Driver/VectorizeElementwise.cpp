//===- VectorizeElementwise.cpp - what is not a quantized matmul ----------===//
//
// A whole module (a decoder layer) holds silu, products and bias adds
// between its quantized matmuls. The strategies run on the outlined
// matmuls; the rest gets this fixed default, so that it is vector code, not
// scalar loops. The pass qforge-vectorize-elementwise applies it to every
// function that holds no quantized matmul and packs no weights
// (test/Driver/vectorize-elementwise.mlir).
//
//===----------------------------------------------------------------------===//

#include "Driver/SelectStrategy.h"
#include "Driver/Surgery.h"

#include "Abi/AbiAttributes.h"
#include "Analysis/Divisors.h"
#include "Rewrites/SplitParameterPacking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void qforge::vectorizeElementwiseOps(func::FuncOp function) {
  SmallVector<linalg::LinalgOp> ops;
  function.walk([&](linalg::LinalgOp op) {
    if (op.getNumLoops() > 0 && op.getNumParallelLoops() == op.getNumLoops() &&
        op.hasPureTensorSemantics() &&
        !ShapedType::isDynamic(op.getStaticLoopRanges().back()))
      ops.push_back(op);
  });
  IRRewriter rewriter(function.getContext());
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    SmallVector<int64_t> tiles(sizes.size(), 1);
    tiles.back() = qforge::largestDivisorAtMost(sizes.back(), 64);
    Operation *toVectorize = op;
    if (sizes != tiles) {
      scf::SCFTilingOptions options;
      options.setTileSizes(
          getAsIndexOpFoldResult(function.getContext(), tiles));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      toVectorize = tiled->tiledOps.front();
    }
    rewriter.setInsertionPoint(toVectorize);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, toVectorize);
    if (succeeded(vectorized)) {
      if (toVectorize->getNumResults())
        rewriter.replaceOp(toVectorize, vectorized->replacements);
      else
        rewriter.eraseOp(toVectorize);
    }
  }
}

namespace {
struct VectorizeElementwisePass
    : public PassWrapper<VectorizeElementwisePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VectorizeElementwisePass)
  StringRef getArgument() const final { return "qforge-vectorize-elementwise"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, arith::ArithDialect, scf::SCFDialect,
                    tensor::TensorDialect, vector::VectorDialect>();
  }
  StringRef getDescription() const final {
    return "Tiles every all-parallel linalg op to rows of at most 64 "
           "elements and vectorizes it, in functions without a quantized "
           "matmul or weight packing";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::SmallPtrSet<Operation *, 8> withMatmuls;
    for (const qforge::MatmulSite &site : qforge::findQuantizedMatmuls(module))
      withMatmuls.insert(site.contraction->getParentOfType<func::FuncOp>());
    for (auto function : module.getOps<func::FuncOp>())
      if (!withMatmuls.contains(function) &&
          !function->hasAttr(qforge::kPrepackedArgumentsAttr) &&
          !qforge::isPackWeightsFunction(function) && !function.isExternal())
        qforge::vectorizeElementwiseOps(function);
  }
};
} // namespace

std::unique_ptr<Pass> qforge::createVectorizeElementwisePass() {
  return std::make_unique<VectorizeElementwisePass>();
}
