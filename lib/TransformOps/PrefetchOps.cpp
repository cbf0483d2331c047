//===- PrefetchOps.cpp - transform.qforge.prefetch_reads_ahead ------------===//
//
// A thin wrapper over lib/Rewrites/PrefetchReadsAhead.
//
//===----------------------------------------------------------------------===//

#include "TransformOps/QForgeTransformOps.h"

#include "Rewrites/PrefetchReadsAhead.h"

using namespace mlir;

LogicalResult transform::PrefetchReadsAheadOp::verify() {
  // The I64Attr getters return unsigned values; check the signed ones.
  if (getIterationsAttr().getInt() < 1)
    return emitOpError("iterations must be at least 1");
  if (getLineBytesAttr().getInt() < 1)
    return emitOpError("line_bytes must be positive");
  if (getMinReadBytesAttr().getInt() < 1)
    return emitOpError("min_read_bytes must be positive");
  int64_t locality = getLocalityAttr().getInt();
  if (locality < 0 || locality > 3)
    return emitOpError("locality must be in [0, 3]");
  return success();
}

DiagnosedSilenceableFailure transform::PrefetchReadsAheadOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  qforge::PrefetchOptions options;
  options.iterations = getIterationsAttr().getInt();
  options.lineBytes = getLineBytesAttr().getInt();
  options.minReadBytes = getMinReadBytesAttr().getInt();
  options.locality = getLocalityAttr().getInt();
  options.intoParentLoop = getIntoParentLoop();
  std::string reason;
  bool notLoop = false;
  FailureOr<qforge::PrefetchPlan> plan =
      qforge::analyzePrefetchReadsAhead(target, options, reason, notLoop);
  if (failed(plan)) {
    DiagnosedSilenceableFailure diag = emitSilenceableError() << reason;
    diag.attachNote(target->getLoc()) << (notLoop ? "target" : "loop");
    return diag;
  }
  qforge::prefetchReadsAhead(rewriter, *plan);
  return DiagnosedSilenceableFailure::success();
}

void transform::PrefetchReadsAheadOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}
