//===- PackingOps.cpp - split_parameter_packing ---------------------------===//

#include "Rewrites/SplitParameterPacking.h"
#include "TransformOps/QForgeTransformOps.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;

void transform::SplitParameterPackingOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getConsumersMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::SplitParameterPackingOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  // The parameter packs of each function, checked before anything changes.
  llvm::MapVector<func::FuncOp, SmallVector<linalg::PackOp>> packsByKernel;
  for (Operation *consumer : state.getPayloadOps(getConsumers())) {
    auto kernel = consumer->getParentOfType<func::FuncOp>();
    SmallVector<linalg::PackOp> &packs = packsByKernel[kernel];
    size_t before = packs.size();
    for (Value operand : consumer->getOperands()) {
      auto pack = operand.getDefiningOp<linalg::PackOp>();
      if (pack && qforge::getPackedArgument(pack) &&
          !llvm::is_contained(packs, pack))
        packs.push_back(pack);
    }
    if (!kernel || packs.size() == before) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "no input of this op is a linalg.pack of a function argument";
      diag.attachNote(consumer->getLoc()) << "consumer";
      return diag;
    }
  }
  for (auto &[kernel, packs] : packsByKernel) {
    std::string reason;
    if (failed(qforge::canSplitParameterPacking(kernel, packs, reason))) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "cannot split the parameter packing: " << reason;
      diag.attachNote(kernel.getLoc()) << "function";
      return diag;
    }
  }
  SmallVector<Operation *> packFunctions;
  for (auto &[kernel, packs] : packsByKernel)
    packFunctions.push_back(
        qforge::splitParameterPacking(rewriter, kernel, packs));
  results.set(cast<OpResult>(getPackFunctions()), packFunctions);
  return DiagnosedSilenceableFailure::success();
}
