//===- FactorOps.cpp - the ops that factor scale and zero-point out
//--------===//

#include "Analysis/DequantContraction.h"
#include "Rewrites/FactorDequantContraction.h"
#include "Rewrites/FactorPackedDequantContraction.h"
#include "Rewrites/FactorTwoLevelContraction.h"
#include "TransformOps/Params.h"
#include "TransformOps/QForgeTransformOps.h"

#include <type_traits>

using namespace mlir;

/// Shared by all factoring ops: pairs up the handles' ops and checks every
/// pair with `canFactor` (which says why not), before anything is rewritten:
/// a failure changes nothing.
using DequantPair = std::pair<qforge::DequantParts, linalg::LinalgOp>;
static DiagnosedSilenceableFailure checkAllPairs(
    transform::TransformOpInterface op, transform::TransformState &state,
    Value dequantHandle, Value contractionHandle,
    function_ref<LogicalResult(const DequantPair &, std::string &)> canFactor,
    SmallVectorImpl<DequantPair> &pairs) {
  auto dequants = llvm::to_vector(state.getPayloadOps(dequantHandle));
  auto contractions = llvm::to_vector(state.getPayloadOps(contractionHandle));
  if (dequants.size() != contractions.size()) {
    return op.emitDefiniteFailure()
           << "expected as many dequant ops (" << dequants.size()
           << ") as contractions (" << contractions.size() << ")";
  }
  for (auto [dequantOp, contractionOp] : llvm::zip(dequants, contractions)) {
    auto generic = dyn_cast<linalg::GenericOp>(dequantOp);
    std::optional<qforge::DequantParts> parts =
        generic ? qforge::matchDequant(generic) : std::nullopt;
    auto contraction = dyn_cast<linalg::LinalgOp>(contractionOp);
    if (!parts || !contraction ||
        !qforge::isMultiReductionContractionOf(contraction,
                                               generic->getResult(0))) {
      DiagnosedSilenceableFailure diag =
          op.emitSilenceableError()
          << "expected a dequantization generic feeding a multi-reduction "
             "contraction (see transform.qforge.match_dequant_contraction)";
      diag.attachNote(dequantOp->getLoc()) << "dequant candidate";
      diag.attachNote(contractionOp->getLoc()) << "contraction candidate";
      return diag;
    }
    std::string reason;
    if (failed(canFactor({*parts, contraction}, reason))) {
      DiagnosedSilenceableFailure diag = op.emitSilenceableError()
                                         << "cannot factor: " << reason;
      diag.attachNote(contractionOp->getLoc()) << "contraction";
      return diag;
    }
    pairs.emplace_back(*parts, contraction);
  }
  return DiagnosedSilenceableFailure::success();
}

/// The new generics of one factored pair, by result kind: 0 activation
/// quantization, 1 activation sums, 2 partial sums, 3 group sums, 4 row sums
/// (the unpacked form only).
template <typename Factored>
static void
collectGenerics(const Factored &factored,
                SmallVectorImpl<SmallVector<Operation *>> &collected) {
  if (factored.activationMax)
    collected[0].append({factored.activationMax, factored.quantizedActivation});
  if (factored.activationSums)
    collected[1].push_back(factored.activationSums);
  collected[2].push_back(factored.partialSums);
  collected[3].push_back(factored.groupSums);
  if constexpr (std::is_same_v<Factored, qforge::FactoredContraction>)
    collected[4].push_back(factored.rowSums);
}

/// Shared by every factoring op: checks every pair with `canFactor`, then
/// rewrites them all with `factor`, and collects the new generics per result
/// kind (collectGenerics).
template <typename Factored>
static DiagnosedSilenceableFailure factorAllPairs(
    transform::TransformOpInterface op, transform::TransformState &state,
    Value dequantHandle, Value contractionHandle,
    function_ref<LogicalResult(const DequantPair &, std::string &)> canFactor,
    function_ref<FailureOr<Factored>(const DequantPair &, std::string &)>
        factor,
    SmallVectorImpl<SmallVector<Operation *>> &collected) {
  SmallVector<DequantPair> pairs;
  DiagnosedSilenceableFailure checked = checkAllPairs(
      op, state, dequantHandle, contractionHandle, canFactor, pairs);
  if (!checked.succeeded())
    return checked;
  collected.assign(5, {});
  for (const DequantPair &pair : pairs) {
    std::string reason;
    FailureOr<Factored> factored = factor(pair, reason);
    if (failed(factored))
      return op.emitDefiniteFailure()
             << "factoring failed after its checks passed: " << reason;
    collectGenerics(*factored, collected);
  }
  return DiagnosedSilenceableFailure::success();
}

/// Every factoring op's results list the kinds of collectGenerics in order,
/// from the activation quantization (ops that quantize) or the activation
/// sums (the others): sets them from `collected` (by reference: it is
/// filled by the factoring call in the same argument list).
static DiagnosedSilenceableFailure
setFactoredResults(Operation *op, bool quantizes,
                   DiagnosedSilenceableFailure status,
                   const SmallVectorImpl<SmallVector<Operation *>> &collected,
                   transform::TransformResults &results) {
  if (!status.succeeded())
    return status;
  unsigned firstKind = quantizes ? 0 : 1;
  for (auto [index, result] : llvm::enumerate(op->getOpResults()))
    results.set(result, collected[firstKind + index]);
  return DiagnosedSilenceableFailure::success();
}

/// The int8 factoring ops' optional `magnitude_times_sign` param (0 or 1),
/// false without one.
template <typename FactoringOp>
static DiagnosedSilenceableFailure
readMagnitudeTimesSign(FactoringOp op, transform::TransformState &state,
                       bool &value) {
  value = false;
  Value param = op.getMagnitudeTimesSign();
  if (!param)
    return DiagnosedSilenceableFailure::success();
  return qforge::getFlagParam(op, state, param, "magnitude_times_sign", value);
}

/// The unpacked factoring ops (float and integer).
static DiagnosedSilenceableFailure
factorAllPairs(transform::TransformOpInterface op,
               transform::TransformRewriter &rewriter,
               transform::TransformState &state, Value dequantHandle,
               Value contractionHandle, const qforge::FactorOptions &options,
               SmallVectorImpl<SmallVector<Operation *>> &collected) {
  return factorAllPairs<qforge::FactoredContraction>(
      op, state, dequantHandle, contractionHandle,
      [&](const DequantPair &pair, std::string &reason) {
        return qforge::canFactorDequantContraction(pair.first, pair.second,
                                                   options, reason);
      },
      [&](const DequantPair &pair, std::string &reason) {
        return qforge::factorDequantContraction(rewriter, pair.first,
                                                pair.second, options, reason);
      },
      collected);
}

DiagnosedSilenceableFailure transform::FactorDequantContractionOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<SmallVector<Operation *>> collected;
  qforge::FactorOptions options;
  options.lanes = getLanesAttr().getInt();
  return setFactoredResults(*this, /*quantizes=*/false,
                            factorAllPairs(*this, rewriter, state, getDequant(),
                                           getContraction(), options,
                                           collected),
                            collected, results);
}

DiagnosedSilenceableFailure transform::QuantizeActivationsAndFactorOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<SmallVector<Operation *>> collected;
  qforge::FactorOptions options;
  options.lanes = getLanesAttr().getInt();
  options.quantizeActivations = true;
  DiagnosedSilenceableFailure flag =
      readMagnitudeTimesSign(*this, state, options.magnitudeTimesSign);
  if (!flag.succeeded())
    return flag;
  return setFactoredResults(*this, /*quantizes=*/true,
                            factorAllPairs(*this, rewriter, state, getDequant(),
                                           getContraction(), options,
                                           collected),
                            collected, results);
}

/// The packed factoring ops (float and integer).
static DiagnosedSilenceableFailure factorAllPackedPairs(
    transform::TransformOpInterface op, transform::TransformRewriter &rewriter,
    transform::TransformState &state, Value dequantHandle,
    Value contractionHandle, bool quantizeActivations, bool magnitudeTimesSign,
    SmallVectorImpl<SmallVector<Operation *>> &collected) {
  return factorAllPairs<qforge::FactoredPackedContraction>(
      op, state, dequantHandle, contractionHandle,
      [&](const DequantPair &pair, std::string &reason) {
        return qforge::canFactorPackedDequantContraction(
            pair.first, pair.second, quantizeActivations, reason);
      },
      [&](const DequantPair &pair, std::string &reason) {
        return qforge::factorPackedDequantContraction(
            rewriter, pair.first, pair.second, quantizeActivations, reason,
            magnitudeTimesSign);
      },
      collected);
}

DiagnosedSilenceableFailure transform::FactorPackedDequantContractionOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<SmallVector<Operation *>> collected;
  return setFactoredResults(*this, /*quantizes=*/false,
                            factorAllPackedPairs(*this, rewriter, state,
                                                 getDequant(), getContraction(),
                                                 /*quantizeActivations=*/false,
                                                 /*magnitudeTimesSign=*/false,
                                                 collected),
                            collected, results);
}

DiagnosedSilenceableFailure
transform::QuantizeActivationsAndFactorPackedOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<SmallVector<Operation *>> collected;
  bool magnitudeTimesSign = false;
  DiagnosedSilenceableFailure flag =
      readMagnitudeTimesSign(*this, state, magnitudeTimesSign);
  if (!flag.succeeded())
    return flag;
  return setFactoredResults(*this, /*quantizes=*/true,
                            factorAllPackedPairs(*this, rewriter, state,
                                                 getDequant(), getContraction(),
                                                 /*quantizeActivations=*/true,
                                                 magnitudeTimesSign, collected),
                            collected, results);
}

/// All factoring ops only read the dequant handle: one dequant feeding
/// several contractions appears once per pair, and a consumed handle may not
/// repeat an op. The dequant is erased (and dropped from the handle) once
/// unused.
template <typename FactoringOp>
static void
getFactoringEffects(FactoringOp op,
                    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(op.getDequantMutable(), effects);
  transform::consumesHandle(op.getContractionMutable(), effects);
  transform::producesHandle(op->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

template <typename FactoringOp>
static LogicalResult verifyLanes(FactoringOp op) {
  if (op.getLanesAttr().getInt() < 1)
    return op.emitOpError("lanes must be at least 1");
  return success();
}

void transform::FactorDequantContractionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getFactoringEffects(*this, effects);
}

LogicalResult transform::FactorDequantContractionOp::verify() {
  return verifyLanes(*this);
}

void transform::FactorPackedDequantContractionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getFactoringEffects(*this, effects);
}

void transform::QuantizeActivationsAndFactorPackedOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getFactoringEffects(*this, effects);
  transform::onlyReadsHandle(getMagnitudeTimesSignMutable(), effects);
}

void transform::QuantizeActivationsAndFactorOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getFactoringEffects(*this, effects);
  transform::onlyReadsHandle(getMagnitudeTimesSignMutable(), effects);
}

LogicalResult transform::QuantizeActivationsAndFactorOp::verify() {
  return verifyLanes(*this);
}

DiagnosedSilenceableFailure transform::FactorTwoLevelContractionOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<qforge::TwoLevelPlan, 1> plans;
  linalg::GenericOp misfit;
  std::string reason;
  for (Operation *target : state.getPayloadOps(getTarget()))
    target->walk([&](linalg::GenericOp generic) {
      if (generic.getNumReductionLoops() < 2)
        return WalkResult::advance();
      FailureOr<qforge::TwoLevelPlan> plan = qforge::analyzeTwoLevelContraction(
          generic, getLanes(), reason, getInt8Activations(), getDividingLanes(),
          getLaneGroups());
      if (failed(plan)) {
        misfit = generic;
        return WalkResult::interrupt();
      }
      plans.push_back(*plan);
      return WalkResult::advance();
    });
  if (misfit) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "cannot factor: " << reason;
    diag.attachNote(misfit.getLoc()) << "contraction";
    return diag;
  }
  if (plans.empty())
    return emitSilenceableError()
           << "found no contraction of a two-level dequantization";
  SmallVector<SmallVector<Operation *>> collected(6);
  for (const qforge::TwoLevelPlan &plan : plans) {
    qforge::FactoredTwoLevel factored =
        qforge::factorTwoLevelContraction(rewriter, plan);
    if (factored.activationMax)
      collected[0].append(
          {factored.activationMax, factored.quantizedActivation});
    if (factored.activationSums)
      collected[1].append(
          {factored.activationLaneSums, factored.activationSums});
    collected[2].push_back(factored.partialSums);
    collected[3].push_back(factored.groupSums);
    if (factored.offsetSums)
      collected[4].append({factored.offsetSums, factored.offsetRows});
    collected[5].push_back(factored.rowSums);
    // Each generic says how many group dims its loops hold, for
    // tile_two_level_loops.
    Attribute groups = rewriter.getI64IntegerAttr(plan.groups.size());
    for (linalg::GenericOp generic :
         {factored.activationMax, factored.quantizedActivation,
          factored.activationLaneSums, factored.activationSums,
          factored.activationScaledScales, factored.partialSums,
          factored.groupSums, factored.offsetSums, factored.offsetRows,
          factored.rowSums})
      if (generic)
        generic->setAttr(qforge::kTwoLevelGroupsAttr, groups);
    if (!plan.laneGroups.empty()) {
      SmallVector<int64_t> positions;
      for (int64_t laneGroup : plan.laneGroups)
        positions.push_back(llvm::find(plan.groups, laneGroup) -
                            plan.groups.begin());
      factored.groupSums->setAttr(qforge::kTwoLevelLaneGroupsAttr,
                                  rewriter.getDenseI64ArrayAttr(positions));
    }
  }
  for (auto [index, result] : llvm::enumerate(getOperation()->getOpResults()))
    results.set(result, collected[index]);
  return DiagnosedSilenceableFailure::success();
}

void transform::FactorTwoLevelContractionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

LogicalResult transform::FactorTwoLevelContractionOp::verify() {
  // As the other ops' verifiers: the attribute's signed value (I64Attr's
  // getter returns uint64_t, where -1 reads as huge).
  if (getLanesAttr().getInt() <= 0)
    return emitOpError() << "lanes must be positive";
  if (getLaneGroupsAttr().getInt() < 0)
    return emitOpError() << "lane_groups must not be negative";
  return success();
}
