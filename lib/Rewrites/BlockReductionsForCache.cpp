//===- BlockReductionsForCache.cpp - the oracle's loops for the cache -----===//
//
// See BlockReductionsForCache.h.
//
//===----------------------------------------------------------------------===//

#include "Rewrites/BlockReductionsForCache.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// The tile edge along each parallel dim (8 float rows of K = 14336 take
/// 448 KiB: an L2's share).
static constexpr int64_t kTileEdge = 8;

/// Whether moving the reductions outside a parallel dim keeps every output's
/// order of terms: each output is indexed by every parallel dim. (An output
/// that a parallel dim does not index accumulates along it too, e.g. outputs
/// (d0) and (d0, d1) with reduction d2: d1 is a reduction of the first.)
static bool everyOutputIndexedByEveryParallelDim(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel;
  op.getParallelDims(parallel);
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    return llvm::all_of(parallel,
                        [&](unsigned dim) { return map.isFunctionOfDim(dim); });
  });
}

void qforge::blockReductionsForCache(Operation *root) {
  SmallVector<linalg::LinalgOp> contractions;
  root->walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0 &&
        op.getNumParallelLoops() > 0 && !op.hasIndexSemantics() &&
        everyOutputIndexedByEveryParallelDim(op))
      contractions.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::LinalgOp op : contractions) {
    rewriter.setInsertionPoint(op);
    if (!isa<linalg::GenericOp>(op)) {
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        continue;
      op = *generic;
    }
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    // A dim no longer than a tile (e.g. a unit batch) gets no loop.
    SmallVector<int64_t> tileSizes;
    for (auto [iterator, extent] :
         llvm::zip_equal(iterators, op.getStaticLoopRanges())) {
      bool tiled = linalg::isParallelIterator(iterator) &&
                   (ShapedType::isDynamic(extent) || extent > kTileEdge);
      tileSizes.push_back(tiled ? kTileEdge : 0);
    }
    scf::SCFTilingOptions options;
    options.setTileSizes(
        getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      continue;
    rewriter.replaceOp(op, tiled->replacements);
    auto tile = tiled->tiledOps.size() == 1
                    ? dyn_cast<linalg::GenericOp>(tiled->tiledOps.front())
                    : linalg::GenericOp();
    if (!tile)
      continue;
    // The parallel dims but the last, the reductions in their order, the
    // last parallel dim innermost.
    SmallVector<unsigned> parallel, order;
    for (auto [dim, iterator] : llvm::enumerate(iterators))
      (linalg::isParallelIterator(iterator) ? parallel : order).push_back(dim);
    order.insert(order.begin(), parallel.begin(), parallel.end() - 1);
    order.push_back(parallel.back());
    rewriter.setInsertionPoint(tile);
    (void)linalg::interchangeGenericOp(rewriter, tile, order);
  }
}
