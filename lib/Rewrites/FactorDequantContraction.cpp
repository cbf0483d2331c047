//===- FactorDequantContraction.cpp - scale/zp out of the inner sum -------===//

#include "Rewrites/FactorDequantContraction.h"
#include "Rewrites/FactoredBodies.h"
#include "Rewrites/QuantizeActivation.h"
#include "Rewrites/SplitLastDim.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;

namespace {
FailureOr<qforge::FactorDimLayout> analyzeDims(linalg::LinalgOp contraction,
                                               OpOperand *dequantized,
                                               std::string &reason) {
  qforge::FactorDimLayout layout;
  AffineMap weightMap = contraction.getMatchingIndexingMap(dequantized);
  if (weightMap.getNumResults() != 3 || !weightMap.isProjectedPermutation()) {
    reason = "the dequantized weights must be read as (n, g, k) by the "
             "contraction";
    return failure();
  }
  layout.n = weightMap.getDimPosition(0);
  layout.g = weightMap.getDimPosition(1);
  layout.k = weightMap.getDimPosition(2);
  auto iterators = contraction.getIteratorTypesArray();
  if (iterators[layout.n] != utils::IteratorType::parallel ||
      iterators[layout.g] != utils::IteratorType::reduction ||
      iterators[layout.k] != utils::IteratorType::reduction ||
      contraction.getNumReductionLoops() != 2) {
    reason = "expected exactly two reduction dims (groups, elements) and a "
             "parallel output dim in the weights' map";
    return failure();
  }
  layout.parallelIndex.assign(iterators.size(), -1);
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      layout.parallelIndex[dim] = layout.numParallel++;
  return layout;
}

/// Remaps `expr` (a dim of the contraction) into the factored dims.
AffineExpr remapDim(AffineExpr expr, const qforge::FactorDimLayout &layout,
                    int64_t gDim, MLIRContext *ctx) {
  unsigned dim = cast<AffineDimExpr>(expr).getPosition();
  if ((int64_t)dim == layout.g)
    return getAffineDimExpr(gDim, ctx);
  return getAffineDimExpr(layout.parallelIndex[dim], ctx);
}

/// Remaps a per-group operand map of the dequant ((d0, d1, 0) or (d0, d1)),
/// d0 -> n and d1 -> g, into the factored dims; fails on any other form.
FailureOr<AffineMap> remapGroupMap(AffineMap map,
                                   const qforge::FactorDimLayout &layout,
                                   int64_t gDim, unsigned numDims,
                                   MLIRContext *ctx) {
  SmallVector<AffineExpr> results;
  for (AffineExpr expr : map.getResults()) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      if (constant.getValue() != 0)
        return failure();
      results.push_back(expr);
      continue;
    }
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    if (dim == 0)
      results.push_back(getAffineDimExpr(layout.parallelIndex[layout.n], ctx));
    else if (dim == 1)
      results.push_back(getAffineDimExpr(gDim, ctx));
    else
      return failure(); // varies along k: not one value per group
  }
  return AffineMap::get(numDims, 0, results, ctx);
}

} // namespace

/// Reorders the loops of `generic`: `first` (the loops a strategy tiles) at
/// the front, `last` (the vector lanes) at the back, the others (batch
/// dims) between them in their current order -- so that tile sizes in a
/// script (rows, groups, chunks) do not depend on how many batch dims the
/// kernel has, and the lanes stay innermost for vectorization.
static linalg::GenericOp reorderLoops(RewriterBase &rewriter,
                                      linalg::GenericOp generic,
                                      ArrayRef<unsigned> first,
                                      ArrayRef<unsigned> last) {
  SmallVector<unsigned> order(first);
  for (unsigned loop = 0, e = generic.getNumLoops(); loop < e; ++loop)
    if (!llvm::is_contained(first, loop) && !llvm::is_contained(last, loop))
      order.push_back(loop);
  order.append(last.begin(), last.end());
  return *linalg::interchangeGenericOp(rewriter, generic, order);
}

FailureOr<qforge::FactorPlan>
qforge::analyzeFactoring(const DequantParts &dequant,
                         linalg::LinalgOp contraction,
                         const FactorOptions &options, std::string &reason) {
  const int64_t lanes = options.lanes;
  const bool quantizeActivations = options.quantizeActivations;
  MLIRContext *ctx = contraction->getContext();
  // Integer mode splits each element chunk further into 4 adjacent bytes:
  // one 32-bit lane of an int8 dot-product instruction (vpdpbusd).
  const int64_t bytesPerLane = quantizeActivations ? 4 : 1;
  linalg::GenericOp dequantOp = dequant.op;
  if (dequant.offsets) {
    reason = "an offset form (tofp(w) * scale - offset) is factored on the "
             "packed layout only (factor_packed_dequant_contraction)";
    return failure();
  }
  Value dequantized = dequantOp->getResult(0);
  OpOperand *weightsUse = nullptr, *activationUse = nullptr;
  for (OpOperand *input : contraction.getDpsInputOperands())
    (input->get() == dequantized ? weightsUse : activationUse) = input;
  if (!weightsUse || !activationUse) {
    reason = "the contraction must read the dequantized weights and one "
             "activation";
    return failure();
  }
  if (!contraction.hasPureTensorSemantics() ||
      !contraction.getStaticLoopRanges().size() ||
      llvm::any_of(contraction.getStaticLoopRanges(), ShapedType::isDynamic)) {
    reason = "only static shapes on tensors are supported";
    return failure();
  }

  // The dequant must be elementwise over (n, g, k) in that order.
  AffineMap identity3 = AffineMap::getMultiDimIdentityMap(3, ctx);
  if (dequantOp.getNumLoops() != 3 ||
      dequantOp.getMatchingIndexingMap(dequant.weights) != identity3 ||
      dequantOp.getIndexingMapsArray().back() != identity3) {
    reason = "the dequantization must be an identity-indexed (n, g, k) "
             "generic";
    return failure();
  }

  FailureOr<qforge::FactorDimLayout> maybeLayout =
      analyzeDims(contraction, weightsUse, reason);
  if (failed(maybeLayout))
    return failure();
  const FactorDimLayout &layout = *maybeLayout;
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  int64_t numGroups = ranges[layout.g], groupSize = ranges[layout.k];
  if (lanes <= 0 || groupSize % (lanes * bytesPerLane) != 0) {
    reason = "the group size (" + std::to_string(groupSize) +
             ") is not a multiple of lanes (" + std::to_string(lanes) + ")" +
             (quantizeActivations ? " x 4 bytes per lane" : "");
    return failure();
  }
  int64_t chunks = groupSize / (lanes * bytesPerLane);

  // Activation: [.., g, k] with g, k last.
  AffineMap activationMap = contraction.getMatchingIndexingMap(activationUse);
  unsigned activationRank = activationMap.getNumResults();
  if (!activationMap.isProjectedPermutation() || activationRank < 2 ||
      activationMap.getDimPosition(activationRank - 2) != layout.g ||
      activationMap.getDimPosition(activationRank - 1) != layout.k) {
    reason = "the activation must be read as (.., g, k)";
    return failure();
  }
  OpOperand *init = contraction.getDpsInitOperand(0);
  AffineMap outputMap = contraction.getMatchingIndexingMap(init);
  if (!outputMap.isProjectedPermutation()) {
    reason = "the result map must be a projected permutation";
    return failure();
  }
  auto activationType = cast<RankedTensorType>(activationUse->get().getType());
  auto weightsType = cast<RankedTensorType>(dequant.weights->get().getType());
  auto resultType = cast<RankedTensorType>(init->get().getType());
  Type floatType = resultType.getElementType();
  if (activationType.getElementType() != floatType ||
      getElementTypeOrSelf(dequantized.getType()) != floatType) {
    reason = "activation, dequantized weights and result must share one "
             "float type";
    return failure();
  }
  if (quantizeActivations &&
      (weightsType.getElementTypeBitWidth() != 8 || !floatType.isF32())) {
    reason = "int8 dot products take 8-bit weights and f32 activations";
    return failure();
  }

  // Scales and zero-points: one value per (n, g), read in the group-sum
  // generic whose dims are [parallel..., g, l].
  const int64_t p = layout.numParallel;
  FailureOr<AffineMap> scaleMap = remapGroupMap(
      dequantOp.getMatchingIndexingMap(dequant.scales), layout, p, p + 2, ctx);
  FailureOr<AffineMap> zeroPointMap = AffineMap();
  if (dequant.zeroPoints)
    zeroPointMap =
        remapGroupMap(dequantOp.getMatchingIndexingMap(dequant.zeroPoints),
                      layout, p, p + 2, ctx);
  if (failed(scaleMap) || failed(zeroPointMap)) {
    reason = "scales and zero-points must be read once per (n, g), e.g. "
             "through (d0, d1, 0)";
    return failure();
  }

  FactorPlan plan;
  plan.dequant = dequant;
  plan.contraction = contraction;
  plan.options = options;
  plan.layout = layout;
  plan.weightsUse = weightsUse;
  plan.activationUse = activationUse;
  plan.numGroups = numGroups;
  plan.chunks = chunks;
  plan.scaleMap = *scaleMap;
  plan.zeroPointMap = *zeroPointMap;
  return plan;
}

qforge::FactoredContraction qforge::applyFactoring(RewriterBase &rewriter,
                                                   const FactorPlan &plan) {
  // The plan's values under the names the analysis gave them.
  const DequantParts &dequant = plan.dequant;
  linalg::LinalgOp contraction = plan.contraction;
  const int64_t lanes = plan.options.lanes;
  const bool quantizeActivations = plan.options.quantizeActivations;
  const int64_t bytesPerLane = quantizeActivations ? 4 : 1;
  const FactorDimLayout &layout = plan.layout;
  const int64_t numGroups = plan.numGroups;
  const int64_t p = layout.numParallel;
  MLIRContext *ctx = contraction->getContext();
  linalg::GenericOp dequantOp = dequant.op;
  OpOperand *activationUse = plan.activationUse;
  AffineMap activationMap = contraction.getMatchingIndexingMap(activationUse);
  unsigned activationRank = activationMap.getNumResults();
  OpOperand *init = contraction.getDpsInitOperand(0);
  AffineMap outputMap = contraction.getMatchingIndexingMap(init);
  auto activationType = cast<RankedTensorType>(activationUse->get().getType());
  auto resultType = cast<RankedTensorType>(init->get().getType());
  Type floatType = resultType.getElementType();
  AffineMap scaleMap = plan.scaleMap, zeroPointMap = plan.zeroPointMap;
  Location loc = contraction.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(contraction);

  // Split k into (j, l) -- or (j, l, q) with 4 bytes q per lane in integer
  // mode: free reshapes of the weights and the activation.
  Value weights = qforge::splitLastDim(rewriter, loc, dequant.weights->get(),
                                       lanes, bytesPerLane);

  auto dim = [&](int64_t position) { return getAffineDimExpr(position, ctx); };
  auto remapAll = [&](AffineMap map, int64_t gDim) {
    SmallVector<AffineExpr> results;
    for (AffineExpr expr : map.getResults())
      results.push_back(remapDim(expr, layout, gDim, ctx));
    return results;
  };
  SmallVector<AffineExpr> activationLeading =
      remapAll(activationMap.getMajorSubMap(activationRank - 2), p);
  SmallVector<AffineExpr> outputExprs = remapAll(outputMap, p);
  SmallVector<int64_t> outputShape(resultType.getShape());
  auto par = utils::IteratorType::parallel;
  auto red = utils::IteratorType::reduction;
  auto addBody = [](OpBuilder &b, Location l, ValueRange args) {
    linalg::YieldOp::create(
        b, l, arith::AddFOp::create(b, l, args[0], args[1]).getResult());
  };

  FactoredContraction result;

  // Integer mode: quantize the activation per group, once per call:
  //   amax[.., g] = max_k |x[.., g, k]|
  //   xq[.., g, k] = clamp(roundeven(x · 127 / amax), -127, 127)  (0 if amax =
  //   0)
  // The activation's scale amax / 127 is applied per group with the weights'.
  Value activation = activationUse->get(), activationMax;
  Type i32 = rewriter.getI32Type();
  if (quantizeActivations) {
    SmallVector<bool> reduced(activationRank, false);
    reduced.back() = true;
    qforge::QuantizedActivation quantized =
        qforge::quantizeActivation(rewriter, loc, activation, reduced);
    result.activationMax = quantized.max;
    result.quantizedActivation = quantized.quantized;
    activationMax = result.activationMax->getResult(0);
    activation = result.quantizedActivation->getResult(0);
  }
  activation =
      qforge::splitLastDim(rewriter, loc, activation, lanes, bytesPerLane);
  // Dims of the split activation after the leading ones: g, j, l (, q).
  const unsigned splitDims = quantizeActivations ? 4 : 3;

  // Signed weights in integer mode are summed as unsigned (sign bit flipped:
  // + weightOffset), or with magnitudeTimesSign unsigned ones as signed
  // (- 128); the group sums take the offset back with the zero-point.
  const bool magnitudeTimesSign = plan.options.magnitudeTimesSign;
  const double weightOffset =
      qforge::integerWeightOffset(quantizeActivations, dequant.weightsAreSigned,
                                  /*nibbles=*/false, magnitudeTimesSign);

  // xs[.., g, l] = Σ_j (Σ_q) x[.., g, j, l (, q)], in f32 (exact for the
  // integers of the quantized activation): dims [activation dims..., g, j, l (,
  // q)].
  Value activationSums;
  if (dequant.zeroPoints || weightOffset != 0.0) {
    unsigned rank = activationRank - 2 + splitDims;
    SmallVector<int64_t> shape(activationType.getShape().drop_back());
    shape.push_back(lanes);
    AffineMap in = AffineMap::getMultiDimIdentityMap(rank, ctx);
    unsigned jDim = activationRank - 1; // first dim after g
    AffineMap out = in.dropResult(jDim);
    if (quantizeActivations)
      out = out.dropResult(out.getNumResults() - 1);
    SmallVector<utils::IteratorType> iterators(rank, par);
    iterators[jDim] = red;
    if (quantizeActivations)
      iterators.back() = red;
    result.activationSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(shape, floatType)},
        ValueRange{activation},
        ValueRange{qforge::zeroFilled(rewriter, loc, shape, floatType)},
        ArrayRef<AffineMap>{in, out}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          qforge::buildActivationSumBody(b, l, args, quantizeActivations,
                                         floatType);
        });
    activationSums = result.activationSums->getResult(0);
  }

  // p[.., n, g, l] = Σ_j x[.., g, j, l] · tofp(w[n, g, j, l]), or in
  // integer mode Σ_j Σ_q xq[.., g, j, l, q] · w[n, g, j, l, q] in i32:
  // dims [parallel..., g, j, l (, q)].
  Type partialType = quantizeActivations ? i32 : floatType;
  {
    unsigned numDims = p + splitDims;
    SmallVector<AffineExpr> splitExprs;
    for (unsigned d = 0; d < splitDims; ++d)
      splitExprs.push_back(dim(p + d));
    SmallVector<AffineExpr> xExprs = activationLeading;
    xExprs.append(splitExprs);
    SmallVector<AffineExpr> wExprs = {dim(layout.parallelIndex[layout.n])};
    wExprs.append(splitExprs);
    SmallVector<AffineExpr> pExprs = outputExprs;
    pExprs.append({dim(p), dim(p + 2)});
    SmallVector<int64_t> shape = outputShape;
    shape.append({numGroups, lanes});
    SmallVector<utils::IteratorType> iterators(numDims, par);
    iterators[p + 1] = red;
    if (quantizeActivations)
      iterators[p + 3] = red;
    bool isSigned = dequant.weightsAreSigned;
    Value partialInit =
        quantizeActivations
            ? linalg::FillOp::create(
                  rewriter, loc,
                  ValueRange{arith::ConstantOp::create(
                      rewriter, loc, i32, rewriter.getI32IntegerAttr(0))},
                  ValueRange{
                      tensor::EmptyOp::create(rewriter, loc, shape, i32)})
                  .getResult(0)
            : qforge::zeroFilled(rewriter, loc, shape, floatType);
    result.partialSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(shape, partialType)},
        ValueRange{activation, weights}, ValueRange{partialInit},
        ArrayRef<AffineMap>{AffineMap::get(numDims, 0, xExprs, ctx),
                            AffineMap::get(numDims, 0, wExprs, ctx),
                            AffineMap::get(numDims, 0, pExprs, ctx)},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          qforge::buildPartialSumBody(b, l, args, quantizeActivations, isSigned,
                                      floatType, std::nullopt,
                                      magnitudeTimesSign);
        });
  }

  // acc[.., n, l] = Σ_g s · (p − z · xs): dims [parallel..., g, l].
  {
    unsigned numDims = p + 2;
    SmallVector<Value> inputs = {dequant.scales->get()};
    SmallVector<AffineMap> maps = {scaleMap};
    if (dequant.zeroPoints) {
      inputs.push_back(dequant.zeroPoints->get());
      maps.push_back(zeroPointMap);
    }
    if (activationSums) {
      SmallVector<AffineExpr> xsExprs = activationLeading;
      xsExprs.append({dim(p), dim(p + 1)});
      inputs.push_back(activationSums);
      maps.push_back(AffineMap::get(numDims, 0, xsExprs, ctx));
    }
    SmallVector<AffineExpr> pExprs = outputExprs;
    pExprs.append({dim(p), dim(p + 1)});
    inputs.push_back(result.partialSums->getResult(0));
    maps.push_back(AffineMap::get(numDims, 0, pExprs, ctx));
    if (quantizeActivations) {
      SmallVector<AffineExpr> maxExprs = activationLeading;
      maxExprs.push_back(dim(p));
      inputs.push_back(activationMax);
      maps.push_back(AffineMap::get(numDims, 0, maxExprs, ctx));
    }
    SmallVector<AffineExpr> accExprs = outputExprs;
    accExprs.push_back(dim(p + 1));
    maps.push_back(AffineMap::get(numDims, 0, accExprs, ctx));
    SmallVector<int64_t> shape = outputShape;
    shape.push_back(lanes);
    SmallVector<utils::IteratorType> iterators(numDims, par);
    iterators[p] = red;
    result.groupSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(shape, floatType)},
        inputs, ValueRange{qforge::zeroFilled(rewriter, loc, shape, floatType)},
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          qforge::buildGroupSumBody(b, l, args, dequant.getShift(),
                                    quantizeActivations, floatType,
                                    weightOffset);
        });
  }

  // out[.., n] += Σ_l acc[.., n, l]: dims [parallel..., l].
  {
    unsigned numDims = p + 1;
    SmallVector<AffineExpr> accExprs = outputExprs;
    accExprs.push_back(dim(p));
    SmallVector<utils::IteratorType> iterators(numDims, par);
    iterators[p] = red;
    result.rowSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{result.groupSums->getResult(0)}, ValueRange{init->get()},
        ArrayRef<AffineMap>{AffineMap::get(numDims, 0, accExprs, ctx),
                            AffineMap::get(numDims, 0, outputExprs, ctx)},
        iterators, addBody);
  }

  // Loop order of every generic: the tiled dims first -- n (rows), g
  // (groups), j (chunks) -- then the batch dims, then the lanes l (and the
  // bytes q): [g, .., k] for the activation quantization, [g, j, .., l (, q)]
  // for the activation sums, [n, g, j, .., l (, q)] for the partial sums,
  // [n, g, .., l] for the group sums and [n, .., l] for the row sums.
  unsigned leading = activationRank - 2, nLoop = layout.parallelIndex[layout.n];
  if (result.activationMax) {
    result.activationMax =
        reorderLoops(rewriter, result.activationMax, {leading}, {leading + 1});
    result.quantizedActivation = reorderLoops(
        rewriter, result.quantizedActivation, {leading}, {leading + 1});
  }
  SmallVector<unsigned> sumLanes = {leading + 2};
  if (quantizeActivations)
    sumLanes.push_back(leading + 3);
  if (result.activationSums)
    result.activationSums = reorderLoops(rewriter, result.activationSums,
                                         {leading, leading + 1}, sumLanes);
  SmallVector<unsigned> partialLanes = {unsigned(p) + 2};
  if (quantizeActivations)
    partialLanes.push_back(unsigned(p) + 3);
  result.partialSums =
      reorderLoops(rewriter, result.partialSums,
                   {nLoop, unsigned(p), unsigned(p) + 1}, partialLanes);
  result.groupSums = reorderLoops(rewriter, result.groupSums,
                                  {nLoop, unsigned(p)}, {unsigned(p) + 1});
  result.rowSums =
      reorderLoops(rewriter, result.rowSums, {nLoop}, {unsigned(p)});

  rewriter.replaceOp(contraction, result.rowSums->getResults());
  if (dequantOp->use_empty())
    rewriter.eraseOp(dequantOp);
  return result;
}

LogicalResult qforge::canFactorDequantContraction(const DequantParts &dequant,
                                                  linalg::LinalgOp contraction,
                                                  const FactorOptions &options,
                                                  std::string &reason) {
  return analyzeFactoring(dequant, contraction, options, reason);
}

FailureOr<qforge::FactoredContraction> qforge::factorDequantContraction(
    RewriterBase &rewriter, const DequantParts &dequant,
    linalg::LinalgOp contraction, const FactorOptions &options,
    std::string &reason) {
  FailureOr<FactorPlan> plan =
      analyzeFactoring(dequant, contraction, options, reason);
  if (failed(plan))
    return failure();
  return applyFactoring(rewriter, *plan);
}
