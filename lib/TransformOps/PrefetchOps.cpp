//===- PrefetchOps.cpp - transform.qforge.prefetch_reads_ahead ------------===//
//
// A thin wrapper over lib/Rewrites/PrefetchReadsAhead.
//
//===----------------------------------------------------------------------===//

#include "TransformOps/Params.h"
#include "TransformOps/QForgeTransformOps.h"

#include "Rewrites/PrefetchReadsAhead.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

LogicalResult transform::PrefetchReadsAheadOp::verify() {
  // The I64Attr getters return unsigned values; check the signed ones.
  if (getIterationsAttr().getInt() < 1)
    return emitOpError("iterations must be at least 1");
  if (getAheadBytesAttr().getInt() < 0)
    return emitOpError("ahead_bytes must not be negative");
  if (getLineBytesAttr().getInt() < 1)
    return emitOpError("line_bytes must be positive");
  if (getMinReadBytesAttr().getInt() < 1)
    return emitOpError("min_read_bytes must be positive");
  int64_t locality = getLocalityAttr().getInt();
  if (locality < 0 || locality > 3)
    return emitOpError("locality must be in [0, 3]");
  return success();
}

DiagnosedSilenceableFailure
transform::PrefetchReadsAheadOp::apply(transform::TransformRewriter &rewriter,
                                       transform::TransformResults &results,
                                       transform::TransformState &state) {
  qforge::PrefetchOptions options;
  options.iterations = getIterationsAttr().getInt();
  options.aheadBytes = getAheadBytesAttr().getInt();
  options.lineBytes = getLineBytesAttr().getInt();
  options.minReadBytes = getMinReadBytesAttr().getInt();
  options.locality = getLocalityAttr().getInt();
  options.intoParentLoop = getIntoParentLoop();
  if (Value param = getMinReadBytesParam()) {
    DiagnosedSilenceableFailure status = qforge::getPositiveParam(
        *this, state, param, "min_read_bytes", options.minReadBytes);
    if (!status.succeeded())
      return status;
  }
  // Each loop apart, as TransformEachOpTrait would (an op with a param
  // operand cannot take that trait): a loop that fails is reported and the
  // others are still prefetched.
  SmallVector<Diagnostic> failures;
  auto targets = llvm::to_vector(state.getPayloadOps(getTarget()));
  llvm::SmallPtrSet<Operation *, 8> targetSet(targets.begin(), targets.end());
  for (Operation *target : targets) {
    // A loop inside another target: the outer loop's prefetch covers its
    // reads already (e.g. a long group's chunks inside the group loop).
    bool nested = false;
    for (Operation *parent = target->getParentOp(); parent && !nested;
         parent = parent->getParentOp())
      nested = targetSet.contains(parent);
    if (nested)
      continue;
    std::string reason;
    bool notLoop = false;
    FailureOr<qforge::PrefetchPlan> plan =
        qforge::analyzePrefetchReadsAhead(target, options, reason, notLoop);
    if (failed(plan)) {
      DiagnosedSilenceableFailure diag = emitSilenceableError() << reason;
      diag.attachNote(target->getLoc()) << (notLoop ? "target" : "loop");
      diag.takeDiagnostics(failures);
      continue;
    }
    qforge::prefetchReadsAhead(rewriter, *plan);
  }
  if (!failures.empty())
    return DiagnosedSilenceableFailure::silenceableFailure(std::move(failures));
  return DiagnosedSilenceableFailure::success();
}

void transform::PrefetchReadsAheadOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  onlyReadsHandle(getMinReadBytesParamMutable(), effects);
  modifiesPayload(effects);
}
