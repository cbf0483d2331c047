//===- TilingOps.cpp - transform.qforge.dividing_tile_size ----------------===//

#include "TransformOps/QForgeTransformOps.h"

#include "Analysis/Divisors.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

LogicalResult transform::DividingTileSizeOp::verify() {
  // The I64Attr getters return unsigned values; check the signed ones.
  if (getDimAttr().getInt() < 0)
    return emitOpError("dim must not be negative");
  if (getAtMostAttr().getInt() < 1)
    return emitOpError("at_most must be positive");
  if (getAtLeastAttr() &&
      (getAtLeastAttr().getInt() < 1 ||
       getAtLeastAttr().getInt() > getAtMostAttr().getInt()))
    return emitOpError("at_least must be in [1, at_most]");
  return success();
}

DiagnosedSilenceableFailure transform::DividingTileSizeOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(target);
  int64_t dim = getDimAttr().getInt();
  if (!linalgOp || dim >= static_cast<int64_t>(linalgOp.getNumLoops())) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "expected a linalg op with a loop " << dim;
    diag.attachNote(target->getLoc()) << "payload op";
    return diag;
  }
  int64_t range = linalgOp.getStaticLoopRanges()[dim];
  if (ShapedType::isDynamic(range)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "loop " << dim << " has a dynamic range";
    diag.attachNote(target->getLoc()) << "payload op";
    return diag;
  }
  int64_t atMost = getAtMostAttr().getInt();
  int64_t tile = range;
  if (range > atMost) {
    tile = qforge::largestDivisorAtMost(range, atMost);
    // Tiles smaller than at_least (by default half of at_most): one tile
    // instead.
    int64_t atLeast =
        getAtLeastAttr() ? getAtLeastAttr().getInt() : (atMost + 1) / 2;
    if (tile < atLeast)
      tile = range;
  }
  results.push_back(rewriter.getI64IntegerAttr(tile));
  return DiagnosedSilenceableFailure::success();
}

void transform::DividingTileSizeOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}
