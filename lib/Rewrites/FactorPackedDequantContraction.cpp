//===- FactorPackedDequantContraction.cpp - factor a packed contraction ---===//

#include "Rewrites/FactorPackedDequantContraction.h"
#include "Rewrites/FactoredBodies.h"
#include "Rewrites/FoldUnitDims.h"
#include "Rewrites/QuantizeActivation.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace {
/// What the checks find, in the contraction's dims.
/// The results of `map` that are not one of `dims`.
SmallVector<AffineExpr> dropDims(AffineMap map,
                                 const llvm::SmallBitVector &dims) {
  SmallVector<AffineExpr> kept;
  for (AffineExpr expr : map.getResults())
    if (!isa<AffineDimExpr>(expr) ||
        !dims.test(cast<AffineDimExpr>(expr).getPosition()))
      kept.push_back(expr);
  return kept;
}

FailureOr<qforge::PackedFactorPlan> analyze(const qforge::DequantParts &dequant,
                                            linalg::LinalgOp contraction,
                                            bool quantizeActivations,
                                            std::string &reason) {
  qforge::PackedFactorPlan a;
  a.dequant = dequant;
  a.contraction = contraction;
  a.quantizeActivations = quantizeActivations;
  linalg::GenericOp dequantOp = dequant.op;
  Value dequantized = dequantOp->getResult(0);
  for (OpOperand *input : contraction.getDpsInputOperands())
    (input->get() == dequantized ? a.weightsUse : a.activationUse) = input;
  if (!a.weightsUse || !a.activationUse) {
    reason = "the contraction must read the dequantized weights and one "
             "activation";
    return failure();
  }
  auto isStatic = [](Value v) {
    auto shaped = dyn_cast<ShapedType>(v.getType());
    return !shaped || shaped.hasStaticShape();
  };
  if (!contraction.hasPureTensorSemantics() ||
      !llvm::all_of(contraction->getOperands(), isStatic) ||
      !llvm::all_of(dequantOp->getOperands(), isStatic)) {
    reason = "only static shapes on tensors are supported";
    return failure();
  }
  unsigned dequantRank = dequantOp.getNumLoops();
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(dequantRank, contraction->getContext());
  AffineMap storedMap = dequantOp.getMatchingIndexingMap(dequant.weights);
  AffineMap expectedStoredMap =
      dequant.nibbleDim ? identity.dropResult(*dequant.nibbleDim) : identity;
  if (storedMap != expectedStoredMap ||
      dequantOp.getIndexingMapsArray().back() != identity) {
    reason = "the dequantization must read its weights (or their byte pairs) "
             "and write its result through identity maps";
    return failure();
  }
  a.weightsMap = contraction.getMatchingIndexingMap(a.weightsUse);
  a.storedWeightsMap = storedMap.compose(a.weightsMap);
  if (dequant.nibbleDim)
    a.nibbleDim =
        cast<AffineDimExpr>(a.weightsMap.getResult(*dequant.nibbleDim))
            .getPosition();
  a.activationMap = contraction.getMatchingIndexingMap(a.activationUse);
  a.outputMap =
      contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  if (!a.weightsMap.isProjectedPermutation() ||
      !a.activationMap.isProjectedPermutation() ||
      !a.outputMap.isProjectedPermutation()) {
    reason = "the contraction's maps must be projected permutations";
    return failure();
  }
  auto iterators = contraction.getIteratorTypesArray();
  for (AffineExpr expr : a.outputMap.getResults()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    if (iterators[d] != utils::IteratorType::parallel) {
      reason = "the result must be indexed by parallel dims only";
      return failure();
    }
  }
  // Scales and zero-points in the contraction's dims.
  a.scaleMap =
      dequantOp.getMatchingIndexingMap(dequant.scales).compose(a.weightsMap);
  // (The offset form's offsets take the zero-points' place.)
  if (OpOperand *shift = dequant.getShiftOperand())
    a.zeroPointMap =
        dequantOp.getMatchingIndexingMap(shift).compose(a.weightsMap);

  unsigned numLoops = contraction.getNumLoops();
  a.elementDims.resize(numLoops);
  a.groupDims.resize(numLoops);
  for (unsigned d = 0; d < numLoops; ++d) {
    if (iterators[d] != utils::IteratorType::reduction)
      continue;
    bool perGroup = a.scaleMap.isFunctionOfDim(d) ||
                    (a.zeroPointMap && a.zeroPointMap.isFunctionOfDim(d));
    (perGroup ? a.groupDims : a.elementDims).set(d);
  }
  if (a.elementDims.none()) {
    reason = "no reduction dim along which the scale and zero-point are "
             "constant: nothing to factor out";
    return failure();
  }
  for (int d : a.elementDims.set_bits()) {
    if (!a.activationMap.isFunctionOfDim(d)) {
      reason = "every element dim must index the activation";
      return failure();
    }
  }
  auto rankedType = [](Value v) { return cast<RankedTensorType>(v.getType()); };
  Type floatType =
      rankedType(contraction.getDpsInitOperand(0)->get()).getElementType();
  if (rankedType(a.activationUse->get()).getElementType() != floatType ||
      rankedType(dequantized).getElementType() != floatType) {
    reason = "activation, dequantized weights and result must share one "
             "float type";
    return failure();
  }
  if (quantizeActivations &&
      (!floatType.isF32() ||
       !rankedType(dequant.weights->get()).getElementType().isInteger(8))) {
    reason = "int8 dot products take 8-bit weights (or byte pairs of 4-bit "
             "ones) and f32 activations";
    return failure();
  }
  return a;
}

/// Loop order: `first` in their order, then the others in theirs. With
/// `foldable` (one bit per loop of `generic`), the interchanged generic
/// names those loops, at their new positions, as the ones a unit-dim fold
/// may drop (FoldUnitDims.h).
linalg::GenericOp loopsFirst(RewriterBase &rewriter, linalg::GenericOp generic,
                             ArrayRef<unsigned> first,
                             const llvm::SmallBitVector *foldable = nullptr) {
  SmallVector<unsigned> order(first);
  for (unsigned loop = 0, e = generic.getNumLoops(); loop < e; ++loop)
    if (!llvm::is_contained(first, loop))
      order.push_back(loop);
  linalg::GenericOp interchanged =
      *linalg::interchangeGenericOp(rewriter, generic, order);
  if (foldable) {
    SmallVector<int64_t> positions;
    for (auto [position, loop] : llvm::enumerate(order))
      if (foldable->test(loop))
        positions.push_back(position);
    interchanged->setAttr(qforge::kFoldableUnitDimsAttrName,
                          rewriter.getDenseI64ArrayAttr(positions));
  }
  return interchanged;
}

/// Whether `pack` can be moved below the quantization: a static source,
/// zero or no padding, static tiles, and each of its inner tiles an element
/// dim exactly when its source dim is one. `sourceElementDims` gets the
/// source's element dims.
bool canQuantizeBeforePack(linalg::PackOp pack,
                           ArrayRef<bool> packedElementDims,
                           SmallVectorImpl<bool> &sourceElementDims) {
  if (!pack.getSourceType().hasStaticShape())
    return false;
  if (Value padding = pack.getPaddingValue())
    if (!matchPattern(padding, m_AnyZeroFloat()))
      return false;
  if (llvm::any_of(pack.getStaticInnerTiles(), ShapedType::isDynamic))
    return false;
  unsigned sourceRank = pack.getSourceRank();
  ArrayRef<int64_t> outerPerm = pack.getOuterDimsPerm();
  sourceElementDims.assign(sourceRank, false);
  for (unsigned outer = 0; outer < sourceRank; ++outer)
    sourceElementDims[outerPerm.empty() ? outer : outerPerm[outer]] =
        packedElementDims[outer];
  for (auto [tile, sourceDim] : llvm::enumerate(pack.getInnerDimsPos()))
    if (packedElementDims[sourceRank + tile] != sourceElementDims[sourceDim])
      return false;
  return true;
}

/// `value` (the pack's source without the dims marked in `dropped`) packed
/// as `pack` packs the kept dims, tagged `qforge.activation_pack = role` for
/// the scripts that tile it.
Value packLike(RewriterBase &rewriter, Location loc, linalg::PackOp pack,
               Value value, ArrayRef<bool> dropped, StringRef role) {
  SmallVector<int64_t> newIndex(dropped.size(), -1);
  for (unsigned dim = 0, next = 0; dim < dropped.size(); ++dim)
    if (!dropped[dim])
      newIndex[dim] = next++;
  SmallVector<int64_t> innerDimsPos, outerPerm;
  SmallVector<OpFoldResult> innerTiles;
  for (auto [dim, tile] :
       llvm::zip(pack.getInnerDimsPos(), pack.getMixedTiles())) {
    if (dropped[dim])
      continue;
    innerDimsPos.push_back(newIndex[dim]);
    innerTiles.push_back(tile);
  }
  for (int64_t dim : pack.getOuterDimsPerm())
    if (!dropped[dim])
      outerPerm.push_back(newIndex[dim]);
  Value dest = linalg::PackOp::createDestinationTensor(
      rewriter, loc, value, innerTiles, innerDimsPos, outerPerm);
  std::optional<Value> padding;
  if (pack.getPaddingValue()) {
    Type element = getElementTypeOrSelf(value.getType());
    padding = arith::ConstantOp::create(rewriter, loc, element,
                                        rewriter.getZeroAttr(element))
                  .getResult();
  }
  auto packed = linalg::PackOp::create(rewriter, loc, value, dest, innerDimsPos,
                                       innerTiles, padding, outerPerm);
  packed->setAttr(qforge::kActivationPackAttrName,
                  rewriter.getStringAttr(role));
  return packed.getResult();
}

} // namespace

FailureOr<qforge::PackedFactorPlan>
qforge::analyzePackedFactoring(const DequantParts &dequant,
                               linalg::LinalgOp contraction,
                               bool quantizeActivations, std::string &reason) {
  return analyze(dequant, contraction, quantizeActivations, reason);
}

qforge::FactoredPackedContraction
qforge::applyPackedFactoring(RewriterBase &rewriter,
                             const PackedFactorPlan &a) {
  const DequantParts &dequant = a.dequant;
  linalg::LinalgOp contraction = a.contraction;
  const bool quantizeActivations = a.quantizeActivations;
  MLIRContext *ctx = contraction->getContext();
  Location loc = contraction.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(contraction);

  unsigned numLoops = contraction.getNumLoops();
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  auto par = utils::IteratorType::parallel;
  auto red = utils::IteratorType::reduction;
  Value activation = a.activationUse->get();
  Value init = contraction.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(init.getType());
  Type floatType = resultType.getElementType();
  Type i32 = rewriter.getI32Type();
  qforge::FactoredPackedContraction result;
  // The activation without its element dims, in the contraction's dims: the
  // map of xs and amax in the group sums.
  AffineMap sumsMap = AffineMap::get(
      numLoops, 0, dropDims(a.activationMap, a.elementDims), ctx);

  // Which of the activation's dims are element dims (summed in a group).
  SmallVector<bool> activationElementDims;
  for (AffineExpr expr : a.activationMap.getResults())
    activationElementDims.push_back(
        a.elementDims.test(cast<AffineDimExpr>(expr).getPosition()));

  // Signed weights in integer mode are summed as unsigned (sign bit flipped:
  // + weightOffset), or with magnitudeTimesSign unsigned ones as signed
  // (- 128); the group sums take the offset back with the zero-point.
  const bool magnitudeTimesSign = a.magnitudeTimesSign;
  double weightOffset =
      qforge::integerWeightOffset(quantizeActivations, dequant.weightsAreSigned,
                                  a.nibbleDim.has_value(), magnitudeTimesSign);
  OpOperand *shift = dequant.getShiftOperand();
  bool needsSums = shift || weightOffset != 0.0;

  // Integer mode on an activation that is a `linalg.pack` (zero-padded) of
  // an unpacked one, as a batched kernel's activation rows are packed: amax,
  // xq and xs are computed on the pack's source, where a group's elements
  // are contiguous, and their results packed like the activation. They then
  // take one vector op per 16 or 64 elements rather than per inner tile of 4
  // (~3x fewer instructions for the seed's 128 x 4096 activation), and the
  // pack moves bytes instead of floats. Padded lanes stay zero: the packs
  // pad with 0, which is what the quantization gives a zero row.
  auto activationPack = activation.getDefiningOp<linalg::PackOp>();
  linalg::PackOp tokenPack = activationPack;
  SmallVector<bool> sourceElementDims;
  if (!quantizeActivations || !activationPack ||
      !canQuantizeBeforePack(activationPack, activationElementDims,
                             sourceElementDims))
    activationPack = nullptr;
  if (activationPack)
    activation = activationPack.getSource();
  ArrayRef<bool> elementDims = activationPack
                                   ? ArrayRef<bool>(sourceElementDims)
                                   : activationElementDims;

  // Integer mode: the activation quantized to int8 per group (the element
  // dims), once per call; its scale amax / 127 joins the weights' per group.
  Value activationMax, activationSums;
  if (quantizeActivations) {
    qforge::QuantizedActivation quantized =
        qforge::quantizeActivation(rewriter, loc, activation, elementDims);
    result.activationMax = quantized.max;
    result.quantizedActivation = quantized.quantized;
    activationMax = quantized.max->getResult(0);
    activation = quantized.quantized->getResult(0);
  }

  // xs: over the activation's dims, the element dims reduced (in f32, exact
  // for the integers of a quantized activation).
  if (needsSums) {
    result.activationSums = qforge::reduceDimsIntoZeros(
        rewriter, loc, activation, elementDims, floatType,
        [&](OpBuilder &b, Location l, ValueRange args) {
          qforge::buildActivationSumBody(b, l, args, quantizeActivations,
                                         floatType);
        });
    activationSums = result.activationSums->getResult(0);
  }

  // The quantization's results in the activation's packed layout (amax and
  // xs without its element dims).
  if (activationPack) {
    SmallVector<bool> noneDropped(elementDims.size(), false);
    activationMax = packLike(rewriter, loc, activationPack, activationMax,
                             elementDims, "amax");
    activation =
        packLike(rewriter, loc, activationPack, activation, noneDropped, "xq");
    if (activationSums)
      activationSums = packLike(rewriter, loc, activationPack, activationSums,
                                elementDims, "xs");
  }

  // p: the contraction's dims, only the element dims reduced, iterated in
  // the weights' storage order with the dims the weights do not index (the
  // activation's rows of a batched kernel) just before the weights'
  // innermost parallel dim, the vector lanes: a tile of p is then rows x
  // lanes (x the element dims inside a lane, if any), and the other element
  // dims are reduced outside it, elementwise. p holds the non-element dims
  // in that order.
  llvm::SmallBitVector inWeights(numLoops);
  SmallVector<unsigned> weightsOrder;
  for (AffineExpr expr : a.weightsMap.getResults()) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    inWeights.set(d);
    weightsOrder.push_back(d);
  }
  // The lanes: the weights' innermost parallel dim (the rows of the tile;
  // element dims after it, such as the 4 bytes of a vpdpbusd lane, stay
  // inside each lane).
  auto iteratorTypes = contraction.getIteratorTypesArray();
  size_t lanesPosition = weightsOrder.size() - 1;
  for (size_t i = weightsOrder.size(); i-- > 0;) {
    if (iteratorTypes[weightsOrder[i]] == par) {
      lanesPosition = i;
      break;
    }
  }
  SmallVector<unsigned> partialOrder(weightsOrder.begin(),
                                     weightsOrder.begin() + lanesPosition);
  for (unsigned d = 0; d < numLoops; ++d)
    if (!inWeights.test(d))
      partialOrder.push_back(d);
  partialOrder.append(weightsOrder.begin() + lanesPosition, weightsOrder.end());

  // Integer mode: the dims a unit-dim fold may drop (FoldUnitDims.h) -- the
  // weights' outermost dim (the row tiles, which the strategies tile by
  // one) and the activation's own dims but its token blocks (the outer dims
  // of the activation pack's tiled dims): a batch of at most 8 tokens keeps
  // its one block, a row with one group its group dim, and so on.
  std::optional<llvm::SmallBitVector> foldable;
  if (quantizeActivations) {
    foldable.emplace(numLoops);
    foldable->set(weightsOrder.front());
    for (unsigned d = 0; d < numLoops; ++d)
      if (!inWeights.test(d))
        foldable->set(d);
    if (tokenPack) {
      ArrayRef<int64_t> outerPerm = tokenPack.getOuterDimsPerm();
      ArrayRef<int64_t> tiled = tokenPack.getInnerDimsPos();
      for (unsigned p = 0, e = tokenPack.getSourceRank(); p < e; ++p) {
        int64_t sourceDim = outerPerm.empty() ? p : outerPerm[p];
        if (llvm::is_contained(tiled, sourceDim))
          if (auto dim = dyn_cast<AffineDimExpr>(a.activationMap.getResult(p)))
            foldable->reset(dim.getPosition());
      }
    }
  }
  SmallVector<AffineExpr> partialExprs;
  SmallVector<int64_t> partialShape;
  for (unsigned d : partialOrder) {
    if (a.elementDims.test(d))
      continue;
    partialExprs.push_back(getAffineDimExpr(d, ctx));
    partialShape.push_back(ranges[d]);
  }
  AffineMap partialMap = AffineMap::get(numLoops, 0, partialExprs, ctx);
  {
    SmallVector<utils::IteratorType> iterators(numLoops, par);
    for (int d : a.elementDims.set_bits())
      iterators[d] = red;
    bool isSigned = dequant.weightsAreSigned;
    Type partialType = quantizeActivations ? i32 : floatType;
    result.partialSums = linalg::GenericOp::create(
        rewriter, loc,
        TypeRange{RankedTensorType::get(partialShape, partialType)},
        ValueRange{activation, dequant.weights->get()},
        ValueRange{
            qforge::zeroFilled(rewriter, loc, partialShape, partialType)},
        ArrayRef<AffineMap>{a.activationMap, a.storedWeightsMap, partialMap},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          qforge::buildPartialSumBody(b, l, args, quantizeActivations, isSigned,
                                      floatType, a.nibbleDim,
                                      magnitudeTimesSign);
        });
    result.partialSums = loopsFirst(rewriter, result.partialSums, partialOrder,
                                    foldable ? &*foldable : nullptr);
  }

  // out += Σ_g s · (p − (z + c) · xs), c the integer weights' offset, or in
  // the offset form s · (p − c · xs) − o · xs: the contraction's dims
  // without the element dims, the group dims reduced.
  {
    auto compress = [&](AffineMap map) {
      return compressDims(map, a.elementDims);
    };
    SmallVector<Value> inputs = {dequant.scales->get()};
    SmallVector<AffineMap> maps = {compress(a.scaleMap)};
    if (shift) {
      inputs.push_back(shift->get());
      maps.push_back(compress(a.zeroPointMap));
    }
    if (activationSums) {
      inputs.push_back(activationSums);
      maps.push_back(compress(sumsMap));
    }
    inputs.push_back(result.partialSums->getResult(0));
    maps.push_back(compress(partialMap));
    if (quantizeActivations) {
      inputs.push_back(activationMax);
      maps.push_back(compress(sumsMap));
    }
    maps.push_back(compress(a.outputMap));
    SmallVector<utils::IteratorType> iterators;
    for (unsigned d = 0; d < numLoops; ++d)
      if (!a.elementDims.test(d))
        iterators.push_back(a.groupDims.test(d) ? red : par);
    assert(iterators.size() == numLoops - a.elementDims.count() &&
           "one iterator per kept dim");
    // Tokens: a dim of more than one the weights do not index (a batched
    // kernel's activation rows). With tokens, s / 127 is computed once for
    // all of them; a decode keeps amax / 127, one scalar per group.
    bool hasTokens = false;
    for (unsigned d = 0; d < numLoops; ++d)
      if (!inWeights.test(d) && ranges[d] != 1)
        hasTokens = true;
    qforge::ActivationScaleOrder scaleOrder =
        hasTokens ? qforge::ActivationScaleOrder::WeightsFirst
                  : qforge::ActivationScaleOrder::ActivationFirst;
    result.groupSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          qforge::buildGroupSumBody(b, l, args, dequant.getShift(),
                                    quantizeActivations, floatType,
                                    weightOffset, scaleOrder);
        });
  }

  // The group sums iterate in p's order: the lanes stay innermost.
  {
    SmallVector<unsigned> compressed(numLoops, 0), groupOrder;
    for (unsigned d = 0, next = 0; d < numLoops; ++d)
      if (!a.elementDims.test(d))
        compressed[d] = next++;
    for (unsigned d : partialOrder)
      if (!a.elementDims.test(d))
        groupOrder.push_back(compressed[d]);
    // The foldable dims in the group sums' (compressed) loops.
    std::optional<llvm::SmallBitVector> groupFoldable;
    if (foldable) {
      groupFoldable.emplace(numLoops - a.elementDims.count());
      for (unsigned d = 0; d < numLoops; ++d)
        if (!a.elementDims.test(d) && foldable->test(d))
          groupFoldable->set(compressed[d]);
    }
    result.groupSums = loopsFirst(rewriter, result.groupSums, groupOrder,
                                  groupFoldable ? &*groupFoldable : nullptr);
  }

  rewriter.replaceOp(contraction, result.groupSums->getResults());
  if (dequant.op->use_empty())
    rewriter.eraseOp(dequant.op);
  if (activationPack && activationPack->use_empty())
    rewriter.eraseOp(activationPack);
  return result;
}

LogicalResult qforge::canFactorPackedDequantContraction(
    const DequantParts &dequant, linalg::LinalgOp contraction,
    bool quantizeActivations, std::string &reason) {
  return analyzePackedFactoring(dequant, contraction, quantizeActivations,
                                reason);
}

FailureOr<qforge::FactoredPackedContraction>
qforge::factorPackedDequantContraction(RewriterBase &rewriter,
                                       const DequantParts &dequant,
                                       linalg::LinalgOp contraction,
                                       bool quantizeActivations,
                                       std::string &reason,
                                       bool magnitudeTimesSign) {
  FailureOr<PackedFactorPlan> plan =
      analyzePackedFactoring(dequant, contraction, quantizeActivations, reason);
  if (failed(plan))
    return failure();
  plan->magnitudeTimesSign = quantizeActivations && magnitudeTimesSign;
  return applyPackedFactoring(rewriter, *plan);
}
