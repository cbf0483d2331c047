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
  SmallVector<Operation *> sums, partials, groups, rows;
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
    FailureOr<qforge::FactoredContraction> factored =
        qforge::factorDequantContraction(rewriter, *parts, contraction,
                                         getLanes(), reason);
    if (failed(factored)) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << "cannot factor: " << reason;
      diag.attachNote(contractionOp->getLoc()) << "contraction";
      return diag;
    }
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
  consumesHandle(getDequantMutable(), effects);
  consumesHandle(getContractionMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}
