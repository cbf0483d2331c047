//===- TilingOps.cpp - tile sizes, balanced packs, unit dims --------------===//

#include "TransformOps/Params.h"
#include "TransformOps/QForgeTransformOps.h"

#include "Analysis/Divisors.h"
#include "Rewrites/FactorTwoLevelContraction.h"
#include "Rewrites/FlattenContiguousVectors.h"
#include "Rewrites/FoldUnitDims.h"
#include "Rewrites/HoistOperandConversion.h"
#include "Rewrites/SplitAccumulationChains.h"
#include "Rewrites/VectorizePaddedPacks.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

#define DEBUG_TYPE "qforge-tiling-ops"

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
  if (getFootprintOperandAttr() && getFootprintOperandAttr().getInt() < 0)
    return emitOpError("footprint_operand must not be negative");
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
  // With a footprint operand the bounds count its elements: one iteration
  // along `dim` covers the ranges of the other loops it is indexed by.
  int64_t perIteration = 1;
  if (IntegerAttr footprint = getFootprintOperandAttr()) {
    int64_t operand = footprint.getInt();
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    if (operand >= static_cast<int64_t>(linalgOp->getNumOperands())) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "no operand " << operand;
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    AffineMap map =
        linalgOp.getMatchingIndexingMap(&linalgOp->getOpOperand(operand));
    for (AffineExpr expr : map.getResults()) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop || loop.getPosition() == dim)
        continue;
      if (ShapedType::isDynamic(ranges[loop.getPosition()])) {
        DiagnosedSilenceableFailure diag =
            emitSilenceableError() << "loop " << loop.getPosition()
                                   << " of the footprint has a dynamic range";
        diag.attachNote(target->getLoc()) << "payload op";
        return diag;
      }
      perIteration *= ranges[loop.getPosition()];
    }
  }
  int64_t atMost =
      std::max<int64_t>(1, getAtMostAttr().getInt() / perIteration);
  int64_t tile = range;
  if (range > atMost) {
    tile = qforge::largestDivisorAtMost(range, atMost);
    // Tiles smaller than at_least (by default half of at_most): one tile
    // instead.
    int64_t atLeast =
        getAtLeastAttr()
            ? std::max<int64_t>(1, getAtLeastAttr().getInt() / perIteration)
            : (atMost + 1) / 2;
    if (tile < atLeast)
      tile = range;
  }
  // One tile: "do not tile" for tile_using_for, no loop of one iteration.
  if (tile == range && getZeroForOneTile())
    tile = 0;
  results.push_back(rewriter.getI64IntegerAttr(tile));
  return DiagnosedSilenceableFailure::success();
}

void transform::DividingTileSizeOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  onlyReadsPayload(effects);
}

LogicalResult transform::PackBalancedOp::verify() {
  // A param entry (ShapedType::kDynamic) counts as a packed loop.
  ArrayRef<int64_t> sizes = getPackedSizes();
  if (llvm::any_of(sizes, [](int64_t size) {
        return size < 0 && !ShapedType::isDynamic(size);
      }))
    return emitOpError("packed_sizes must not be negative");
  if (getDynamicPackedSizes().size() !=
      static_cast<size_t>(llvm::count_if(sizes, ShapedType::isDynamic)))
    return emitOpError("expected one param per dynamic entry of packed_sizes");
  for (int64_t dim : getBalanceDims())
    if (dim < 0 || dim >= static_cast<int64_t>(sizes.size()) || sizes[dim] == 0)
      return emitOpError("balance_dims must name packed loops (a nonzero "
                         "entry of packed_sizes)");
  if (getSizes().size() != static_cast<size_t>(llvm::count_if(
                               sizes, [](int64_t s) { return s != 0; })))
    return emitOpError("expected one param result per nonzero entry of "
                       "packed_sizes");
  if (getTileOverheadAttr() && getTileOverheadAttr().getInt() < 0)
    return emitOpError("tile_overhead must not be negative");
  return success();
}

/// The smallest tile that covers `range` in as many tiles as `size` does,
/// but not a unit tile where `size` is larger: the pack canonicalizations
/// fold a unit tile into a reshape, which a script's handle to the pack
/// does not follow (M = 1 through a prefill script then pads to 2 rows).
///
/// With an `overhead` per tile, the tile count is the one that minimizes
/// count * (tile + overhead) over the counts that tiles of 2 to `size`
/// give (ties: fewer tiles): a tile of `size` that pads may cost more than
/// more tiles that do not. At most 1024 candidates, costs saturating.
static int64_t balancedTile(int64_t range, int64_t size,
                            std::optional<int64_t> overhead) {
  int64_t tiles = llvm::divideCeil(range, size);
  if (overhead) {
    auto cost = [&](int64_t count) {
      uint64_t perTile = llvm::SaturatingAdd<uint64_t>(
          llvm::divideCeil(range, count), *overhead);
      return llvm::SaturatingMultiply<uint64_t>(count, perTile);
    };
    uint64_t best = cost(tiles);
    // Tiles past the range cover it as one does; bounded time whatever the
    // sizes (a register tile is tens of rows).
    int64_t largest = std::min(size - 1, range);
    for (int64_t tile = largest; tile >= std::max<int64_t>(2, largest - 1023);
         --tile) {
      int64_t count = llvm::divideCeil(range, tile);
      if (uint64_t candidate = cost(count); candidate < best) {
        best = candidate;
        tiles = count;
      }
    }
  }
  int64_t balanced = llvm::divideCeil(range, tiles);
  return size > 1 ? std::max<int64_t>(balanced, 2) : balanced;
}

DiagnosedSilenceableFailure
transform::PackBalancedOp::apply(transform::TransformRewriter &rewriter,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  SmallVector<int64_t> requested(getPackedSizes());
  auto dynamicSizes = getDynamicPackedSizes().begin();
  for (int64_t &size : requested) {
    if (!ShapedType::isDynamic(size))
      continue;
    DiagnosedSilenceableFailure status = qforge::getPositiveParam(
        *this, state, *dynamicSizes++, "packed size", size);
    if (!status.succeeded())
      return status;
  }
  std::optional<int64_t> overhead;
  if (IntegerAttr attr = getTileOverheadAttr())
    overhead = attr.getInt();
  SmallVector<Operation *> packedOps;
  // The sizes used, per nonzero entry: the same for every payload op (a
  // param result holds one value per entry).
  SmallVector<int64_t> used;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(target);
    if (!linalgOp || linalgOp.getNumLoops() != requested.size()) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "expected a linalg op with "
                                         << requested.size() << " loops";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    SmallVector<int64_t> sizes(requested);
    for (int64_t dim : getBalanceDims()) {
      if (ShapedType::isDynamic(ranges[dim])) {
        DiagnosedSilenceableFailure diag =
            emitSilenceableError()
            << "loop " << dim << " has a dynamic range: nothing to balance to";
        diag.attachNote(target->getLoc()) << "payload op";
        return diag;
      }
      sizes[dim] = balancedTile(ranges[dim], sizes[dim], overhead);
    }
    SmallVector<int64_t> nonzero;
    llvm::copy_if(sizes, std::back_inserter(nonzero),
                  [](int64_t size) { return size != 0; });
    if (!used.empty() && used != nonzero) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << "payload ops of different ranges would "
                                    "take different tiles; pack them apart";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    used = nonzero;
    rewriter.setInsertionPoint(linalgOp);
    FailureOr<linalg::PackResult> packed = linalg::pack(
        rewriter, linalgOp, getAsIndexOpFoldResult(getContext(), sizes));
    if (failed(packed)) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "linalg::pack failed";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    packedOps.push_back(packed->packedLinalgOp);
  }
  results.set(cast<OpResult>(getPacked()), packedOps);
  for (auto [index, param] : llvm::enumerate(getSizes())) {
    SmallVector<Attribute> values;
    if (!used.empty())
      values.push_back(rewriter.getI64IntegerAttr(used[index]));
    results.setParams(cast<OpResult>(param), values);
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::PackBalancedOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  onlyReadsHandle(getDynamicPackedSizesMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure
transform::FoldUnitExtentDimsOp::apply(transform::TransformRewriter &rewriter,
                                       transform::TransformResults &results,
                                       transform::TransformState &state) {
  SmallVector<Operation *> targets =
      llvm::to_vector(state.getPayloadOps(getTarget()));
  for (Operation *target : targets)
    qforge::foldUnitExtentDims(target);
  results.set(cast<OpResult>(getTransformed()), targets);
  return DiagnosedSilenceableFailure::success();
}

LogicalResult transform::UnrollDividingOp::verify() {
  if (bool(getAtMostParam()) == bool(getAtMostAttr()))
    return emitOpError("expects at_most as an attribute or a param, not both "
                       "nor neither");
  if (getAtMostAttr() && *getAtMost() < 1)
    return emitOpError("at_most must be positive");
  return success();
}

DiagnosedSilenceableFailure
transform::UnrollDividingOp::apply(transform::TransformRewriter &rewriter,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  int64_t atMost = getAtMost().value_or(1);
  if (Value param = getAtMostParam()) {
    DiagnosedSilenceableFailure status =
        qforge::getPositiveParam(*this, state, param, "at_most", atMost);
    if (!status.succeeded())
      return status;
  }
  // Each loop apart, as TransformEachOpTrait would (an op with a param
  // operand cannot take that trait): a loop that fails is reported and the
  // others are still unrolled.
  SmallVector<Diagnostic> failures;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto loop = dyn_cast<scf::ForOp>(target);
    std::optional<APInt> tripCount =
        loop ? loop.getStaticTripCount() : std::optional<APInt>();
    if (!tripCount) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError() << "expected an scf.for with a constant trip "
                                    "count";
      diag.attachNote(target->getLoc()) << "payload op";
      diag.takeDiagnostics(failures);
      continue;
    }
    int64_t iterations = tripCount->getSExtValue();
    if (iterations < 2)
      continue;
    int64_t factor = qforge::largestDivisorAtMost(iterations, atMost);
    if (factor > 1 && failed(loopUnrollByFactor(loop, factor))) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "failed to unroll by " << factor;
      diag.attachNote(target->getLoc()) << "payload op";
      diag.takeDiagnostics(failures);
    }
  }
  if (!failures.empty())
    return DiagnosedSilenceableFailure::silenceableFailure(std::move(failures));
  return DiagnosedSilenceableFailure::success();
}

void transform::UnrollDividingOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  if (getAtMostParam())
    onlyReadsHandle(getAtMostParamMutable(), effects);
  modifiesPayload(effects);
}

LogicalResult transform::SplitAccumulationChainsOp::verify() {
  if (getChainsAttr().getInt() < 2)
    return emitOpError("chains must be at least 2");
  return success();
}

DiagnosedSilenceableFailure transform::SplitAccumulationChainsOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  unsigned chains = getChainsAttr().getInt();
  for (Operation *target : state.getPayloadOps(getTarget()))
    for (const qforge::AccumulationChain &chain :
         qforge::findVectorAccumulationChains(target))
      qforge::splitAccumulationChain(rewriter, chain, chains);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure transform::VectorizePaddedPacksOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  auto pack = dyn_cast<linalg::PackOp>(target);
  if (!pack)
    return emitDefiniteFailure() << "expected a linalg.pack";
  // A pack this cannot take (a dynamic destination) stays for the later
  // vectorization or bufferization, as it would without this op.
  FailureOr<SmallVector<int64_t>> sizes =
      qforge::getPaddedPackVectorSizes(pack);
  if (failed(sizes))
    return DiagnosedSilenceableFailure::success();
  if (failed(qforge::vectorizePaddedPack(rewriter, pack, *sizes)))
    return emitDefiniteFailure()
           << "the vectorizer accepted the pack's sizes but failed on it";
  return DiagnosedSilenceableFailure::success();
}

void transform::VectorizePaddedPacksOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

LogicalResult transform::FlattenContiguousVectorsOp::verify() {
  if (getBytesOnly() && getLoopCarried())
    return emitOpError("expects bytes_only or loop_carried, not both");
  return success();
}

DiagnosedSilenceableFailure transform::FlattenContiguousVectorsOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  if (failed(qforge::flattenContiguousVectors(target, getLoopCarried(),
                                              getBytesOnly()))) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "could not flatten the vectors";
    diag.attachNote(target->getLoc()) << "payload op";
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::FlattenContiguousVectorsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

LogicalResult transform::SplitLoopCarriedSumsOp::verify() {
  if (getChainsParam() && getChainsAttr())
    return emitOpError("expects chains as an attribute or a param, not both");
  if (getChainsAttr() && *getChains() < 2)
    return emitOpError("chains must be at least 2");
  return success();
}

DiagnosedSilenceableFailure
transform::SplitLoopCarriedSumsOp::apply(transform::TransformRewriter &rewriter,
                                         transform::TransformResults &results,
                                         transform::TransformState &state) {
  int64_t chains = getChains().value_or(2);
  if (Value param = getChainsParam()) {
    DiagnosedSilenceableFailure status =
        qforge::getPositiveParam(*this, state, param, "chains", chains);
    if (!status.succeeded())
      return status;
    if (chains < 2)
      return emitDefiniteFailure() << "expected the chains param to hold an "
                                      "integer of at least 2";
  }
  // The loops first, each once: splitting one replaces it.
  llvm::SetVector<scf::ForOp> loops;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto loop = dyn_cast<scf::ForOp>(target);
    if (!loop) {
      DiagnosedDefiniteFailure diag = emitDefiniteFailure()
                                      << "expected an scf.for";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    loops.insert(loop);
  }
  for (scf::ForOp loop : loops)
    qforge::splitLoopCarriedSums(rewriter, loop, chains);
  return DiagnosedSilenceableFailure::success();
}

void transform::SplitLoopCarriedSumsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  if (getChainsParam())
    onlyReadsHandle(getChainsParamMutable(), effects);
  modifiesPayload(effects);
}

LogicalResult transform::SplitIntegerReductionChainsOp::verify() {
  if (getChainsAttr().getInt() < 2)
    return emitOpError("chains must be at least 2");
  return success();
}

DiagnosedSilenceableFailure transform::SplitIntegerReductionChainsOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  unsigned chains = getChainsAttr().getInt();
  for (Operation *target : state.getPayloadOps(getTarget()))
    for (const qforge::ReductionChain &chain :
         qforge::findIntegerReductionChains(target))
      qforge::splitIntegerReductionChain(rewriter, chain, chains);
  return DiagnosedSilenceableFailure::success();
}

void transform::SplitIntegerReductionChainsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

void transform::SplitAccumulationChainsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

DiagnosedSilenceableFailure transform::HoistOperandConversionOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  uint64_t input = getInputAttr().getValue().getZExtValue();
  // Every payload op checked before any is rewritten.
  SmallVector<linalg::GenericOp> generics;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto generic = dyn_cast<linalg::GenericOp>(target);
    if (!generic)
      return emitDefiniteFailure() << "expected a linalg.generic";
    if (input >= static_cast<uint64_t>(generic.getNumDpsInputs()))
      return emitDefiniteFailure()
             << "input " << input << " is out of range: the generic has "
             << generic.getNumDpsInputs() << " inputs";
    generics.push_back(generic);
  }
  SmallVector<Operation *> conversions, updated;
  for (linalg::GenericOp generic : generics) {
    updated.push_back(generic);
    std::string reason;
    FailureOr<qforge::OperandConversionPlan> plan =
        qforge::analyzeOperandConversion(generic, static_cast<unsigned>(input),
                                         getMinIterationsAttr().getInt(),
                                         reason);
    if (failed(plan)) {
      LLVM_DEBUG(llvm::dbgs() << "hoist_operand_conversion leaves "
                              << generic->getLoc() << ": " << reason << "\n");
      continue;
    }
    conversions.push_back(qforge::hoistOperandConversion(rewriter, *plan));
  }
  results.set(cast<OpResult>(getConversions()), conversions);
  results.set(cast<OpResult>(getUpdated()), updated);
  return DiagnosedSilenceableFailure::success();
}

LogicalResult transform::TileTwoLevelLoopsOp::verify() {
  if (!llvm::is_contained(
          {"leading_groups", "tokens_and_groups", "sub_blocks", "step"},
          getDims()))
    return emitOpError("dims must be leading_groups, tokens_and_groups, "
                       "sub_blocks or step");
  return success();
}

DiagnosedSilenceableFailure
transform::TileTwoLevelLoopsOp::apply(transform::TransformRewriter &rewriter,
                                      transform::TransformResults &results,
                                      transform::TransformState &state) {
  SmallVector<Operation *> tiled, loops, innermost;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto tileable = dyn_cast<TilingInterface>(target);
    auto groups =
        target->getAttrOfType<IntegerAttr>(qforge::kTwoLevelGroupsAttr);
    if (!tileable || !groups) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "expected a generic of factor_two_level_contraction (carrying "
          << qforge::kTwoLevelGroupsAttr << ")";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    // The sizes a tile_using_for of one script per type would spell.
    int64_t r = groups.getInt();
    SmallVector<int64_t> sizes;
    if (getDims() == "leading_groups")
      sizes.assign(r, 1);
    else if (getDims() == "tokens_and_groups")
      sizes.assign(r + 1, 1);
    else if (getDims() == "sub_blocks") {
      sizes = SmallVector<int64_t>(r + 1, 1), sizes[0] = sizes[1] = 0;
      if (auto laneGroups = target->getAttrOfType<DenseI64ArrayAttr>(
              qforge::kTwoLevelLaneGroupsAttr))
        for (int64_t position : laneGroups.asArrayRef())
          if (position >= 0 && position < r)
            sizes[1 + position] = 0;
    } else
      sizes = SmallVector<int64_t>(r + 2, 0), sizes[r + 1] = 1;
    if (static_cast<int64_t>(tileable.getLoopIteratorTypes().size()) <
        static_cast<int64_t>(sizes.size())) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "the payload op has fewer loops than " << getDims() << " of " << r
          << " group dims needs";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(getContext(), sizes));
    rewriter.setInsertionPoint(target);
    FailureOr<scf::SCFTilingResult> result =
        scf::tileUsingSCF(rewriter, tileable, options);
    if (failed(result)) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
                                         << "tiling failed";
      diag.attachNote(target->getLoc()) << "payload op";
      return diag;
    }
    rewriter.replaceOp(target, result->replacements);
    tiled.append(result->tiledOps.begin(), result->tiledOps.end());
    for (LoopLikeOpInterface loop : llvm::reverse(result->loops))
      loops.push_back(loop);
    if (!result->loops.empty())
      innermost.push_back(result->loops.back());
  }
  results.set(cast<OpResult>(getTiled()), tiled);
  results.set(cast<OpResult>(getLoops()), loops);
  results.set(cast<OpResult>(getInnermost()), innermost);
  return DiagnosedSilenceableFailure::success();
}

void transform::TileTwoLevelLoopsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  consumesHandle(getTargetMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}
