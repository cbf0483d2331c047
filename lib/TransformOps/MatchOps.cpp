//===- MatchOps.cpp - qforge matchers and navigation
//------------------------===//

#include "Analysis/DequantContraction.h"
#include "TransformOps/QForgeTransformOps.h"

using namespace mlir;

DiagnosedSilenceableFailure transform::MatchDequantContractionOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<Operation *> dequants, contractions;
  for (Operation *root : state.getPayloadOps(getRoot())) {
    root->walk([&](linalg::GenericOp generic) {
      if (!qforge::matchDequant(generic))
        return;
      Value dequantized = generic->getResult(0);
      for (Operation *user : dequantized.getUsers()) {
        auto consumer = dyn_cast<linalg::LinalgOp>(user);
        if (!consumer ||
            !qforge::isMultiReductionContractionOf(consumer, dequantized))
          continue;
        dequants.push_back(generic);
        contractions.push_back(consumer);
      }
    });
  }
  if (dequants.empty()) {
    return emitSilenceableError()
           << "found no dequantization generic ((tofp(w) - zp) * scale or "
              "tofp(w) * scale - offset, all "
              "parallel, scale read through a broadcasting map) feeding a "
              "contraction with two or more reduction dims";
  }
  // A loop of size 0 has nothing to tile (and upstream tiling does not
  // expect one).
  for (Operation *contraction : contractions) {
    if (!llvm::is_contained(
            cast<linalg::LinalgOp>(contraction).getStaticLoopRanges(), 0))
      continue;
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "the contraction has a loop of size 0";
    diag.attachNote(contraction->getLoc()) << "contraction";
    return diag;
  }
  results.set(cast<OpResult>(getDequant()), dequants);
  results.set(cast<OpResult>(getContraction()), contractions);
  return DiagnosedSilenceableFailure::success();
}

void transform::MatchDequantContractionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getRootMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

DiagnosedSilenceableFailure
transform::GetInitProducersOp::apply(transform::TransformRewriter &rewriter,
                                     transform::TransformResults &results,
                                     transform::TransformState &state) {
  SmallVector<Operation *> producers;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto destinationStyle = dyn_cast<DestinationStyleOpInterface>(target);
    if (!destinationStyle) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "expected a destination-style op";
      diag.attachNote(target->getLoc()) << "target";
      return diag;
    }
    for (Value init : destinationStyle.getDpsInits()) {
      Operation *producer = init.getDefiningOp();
      if (!producer) {
        DiagnosedSilenceableFailure diag = emitSilenceableError()
                                           << "an init is a block argument";
        diag.attachNote(target->getLoc()) << "target";
        return diag;
      }
      producers.push_back(producer);
    }
  }
  results.set(cast<OpResult>(getProducers()), producers);
  return DiagnosedSilenceableFailure::success();
}

/// The integer `name` of the qforge.strategy_params dictionary on `op`, or
/// null when `op` has none or it does not name `name`.
static Attribute findStrategyParam(Operation *op, StringRef name) {
  auto params = op->getAttrOfType<DictionaryAttr>("qforge.strategy_params");
  return params ? params.get(name) : Attribute();
}

DiagnosedSilenceableFailure
transform::StrategyParamOp::apply(transform::TransformRewriter &rewriter,
                                  transform::TransformResults &results,
                                  transform::TransformState &state) {
  Attribute found;
  Operation *foundOn = nullptr;
  auto consider = [&](Operation *op) -> LogicalResult {
    Attribute value = findStrategyParam(op, getName());
    if (!value)
      return success();
    if (found && found != value)
      return failure();
    found = value;
    foundOn = op;
    return success();
  };
  for (Operation *root : state.getPayloadOps(getRoot())) {
    Attribute before = found;
    for (Operation *op = root; op; op = op->getParentOp())
      if (failed(consider(op)))
        return emitDefiniteFailure()
               << "two strategy parameter dictionaries disagree on '"
               << getName() << "'";
    if (found && found != before)
      continue;
    WalkResult walk = root->walk([&](Operation *op) {
      return failed(consider(op)) ? WalkResult::interrupt()
                                  : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return emitDefiniteFailure()
             << "two strategy parameter dictionaries disagree on '" << getName()
             << "'";
  }
  if (!found && getDefaultValue())
    found = getDefaultValueAttr();
  auto integer = dyn_cast_or_null<IntegerAttr>(found);
  if (!integer) {
    DiagnosedDefiniteFailure diag =
        emitDefiniteFailure()
        << "no strategy parameter '" << getName()
        << "' (qforge.strategy_params, recorded by strategy selection from "
           "the table's row); a script run by hand writes the number with "
           "transform.param.constant";
    if (found)
      diag.attachNote(foundOn->getLoc()) << "it is not an integer here";
    return diag;
  }
  results.setParams(
      cast<OpResult>(getParam()),
      {IntegerAttr::get(IntegerType::get(getContext(), 64), integer.getInt())});
  return DiagnosedSilenceableFailure::success();
}
