//===- FactorOps.cpp - transform.qforge.factor_dequant_contraction --------===//

#include "Analysis/DequantContraction.h"
#include "Rewrites/FactorDequantContraction.h"
#include "TransformOps/QForgeTransformOps.h"

using namespace mlir;

DiagnosedSilenceableFailure transform::FactorDequantContractionOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  auto dequants = llvm::to_vector(state.getPayloadOps(getDequant()));
  auto contractions = llvm::to_vector(state.getPayloadOps(getContraction()));
  if (dequants.size() != contractions.size()) {
    return emitDefiniteFailure()
           << "expected as many dequant ops (" << dequants.size()
           << ") as contractions (" << contractions.size() << ")";
  }
  // All pairs are checked before any is rewritten: a failure changes nothing.
  SmallVector<std::pair<qforge::DequantParts, linalg::LinalgOp>> pairs;
  for (auto [dequantOp, contractionOp] : llvm::zip(dequants, contractions)) {
    auto generic = dyn_cast<linalg::GenericOp>(dequantOp);
    std::optional<qforge::DequantParts> parts =
        generic ? qforge::matchDequant(generic) : std::nullopt;
    auto contraction = dyn_cast<linalg::LinalgOp>(contractionOp);
    if (!parts || !contraction ||
        !qforge::isMultiReductionContractionOf(contraction,
                                               generic->getResult(0))) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "expected a dequantization generic feeding a multi-reduction "
             "contraction (see transform.qforge.match_dequant_contraction)";
      diag.attachNote(dequantOp->getLoc()) << "dequant candidate";
      diag.attachNote(contractionOp->getLoc()) << "contraction candidate";
      return diag;
    }
    std::string reason;
    if (failed(qforge::canFactorDequantContraction(*parts, contraction,
                                                   getLanes(), reason))) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << "cannot factor: " << reason;
      diag.attachNote(contractionOp->getLoc()) << "contraction";
      return diag;
    }
    pairs.emplace_back(*parts, contraction);
  }

  SmallVector<Operation *> sums, partials, groups, rows;
  for (auto &[parts, contraction] : pairs) {
    std::string reason;
    FailureOr<qforge::FactoredContraction> factored =
        qforge::factorDequantContraction(rewriter, parts, contraction,
                                         getLanes(), reason);
    if (failed(factored))
      return emitDefiniteFailure() << "factoring failed after its checks "
                                      "passed: "
                                   << reason;
    if (factored->activationSums)
      sums.push_back(factored->activationSums);
    partials.push_back(factored->partialSums);
    groups.push_back(factored->groupSums);
    rows.push_back(factored->rowSums);
  }
  results.set(cast<OpResult>(getActivationSums()), sums);
  results.set(cast<OpResult>(getPartialSums()), partials);
  results.set(cast<OpResult>(getGroupSums()), groups);
  results.set(cast<OpResult>(getRowSums()), rows);
  return DiagnosedSilenceableFailure::success();
}

void transform::FactorDequantContractionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  // The dequant handle is only read: one dequant feeding several
  // contractions appears once per pair, and a consumed handle may not repeat
  // an op. The dequant is erased (and dropped from the handle) once unused.
  onlyReadsHandle(getDequantMutable(), effects);
  consumesHandle(getContractionMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

LogicalResult transform::FactorDequantContractionOp::verify() {
  if (getLanesAttr().getInt() < 1)
    return emitOpError("lanes must be at least 1");
  return success();
}
