//===- FactorTwoLevelContraction.cpp - s·q − o out of the inner sum -------===//

#include "Rewrites/FactorTwoLevelContraction.h"
#include "Analysis/DequantContraction.h"
#include "Analysis/Divisors.h"
#include "Rewrites/FactoredBodies.h"
#include "Rewrites/QuantizeActivation.h"
#include "Rewrites/SplitLastDim.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {
/// The input operand of `generic` whose block argument is `value`, if any.
OpOperand *inputOfArgument(linalg::GenericOp generic, Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != generic.getBlock() ||
      argument.getArgNumber() >= generic.getNumDpsInputs())
    return nullptr;
  return generic.getDpsInputOperand(argument.getArgNumber());
}

} // namespace

FailureOr<qforge::TwoLevelPlan>
qforge::analyzeTwoLevelContraction(linalg::GenericOp contraction, int64_t lanes,
                                   std::string &reason,
                                   bool quantizeActivations, bool dividingLanes,
                                   int64_t laneGroups, bool dynamicTokens) {
  TwoLevelPlan plan;
  plan.contraction = contraction;
  plan.lanes = lanes;
  plan.quantizeActivations = quantizeActivations;
  const int64_t bytesPerLane = quantizeActivations ? 4 : 1;
  if (!contraction.hasPureTensorSemantics() ||
      contraction.getNumDpsInputs() != 2) {
    reason = "not a contraction out + x * w with two or more reduction dims";
    return failure();
  }
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  if (!dynamicTokens && llvm::any_of(ranges, ShapedType::isDynamic)) {
    reason = "only static shapes are supported";
    return failure();
  }
  for (OpOperand *input : contraction.getDpsInputOperands()) {
    auto producer = input->get().getDefiningOp<linalg::GenericOp>();
    if (producer && producer->getNumResults() == 1 &&
        producer.hasPureTensorSemantics() &&
        producer.getNumLoops() == producer.getNumParallelLoops() &&
        producer.getIndexingMapsArray().back().isIdentity() && !plan.dequant) {
      plan.dequant = producer;
      plan.weightsUse = input;
    }
  }
  if (!plan.dequant) {
    reason = "no input is produced by an elementwise dequantization generic";
    return failure();
  }
  if (!isMultiReductionContractionOf(contraction, plan.dequant->getResult(0))) {
    reason = "not a contraction out + x * w with two or more reduction dims";
    return failure();
  }
  plan.activationUse =
      contraction.getDpsInputOperand(plan.weightsUse->getOperandNumber() == 0);
  linalg::GenericOp dequant = plan.dequant;
  AffineMap weightMap = contraction.getMatchingIndexingMap(plan.weightsUse);
  if (!weightMap.isProjectedPermutation() ||
      weightMap.getNumResults() != dequant.getNumLoops()) {
    reason = "the contraction reads the dequantized weights through a map "
             "that is not a projected permutation";
    return failure();
  }
  for (unsigned i = 0; i < dequant.getNumLoops(); ++i)
    plan.dequantDims.push_back(weightMap.getDimPosition(i));

  // The body: yield s·q − o (or s·q), s and o block arguments used once.
  Block *body = dequant.getBlock();
  Value yielded = body->getTerminator()->getOperand(0);
  Value scaledValue = yielded;
  if (auto subtract = yielded.getDefiningOp<arith::SubFOp>()) {
    plan.offset = inputOfArgument(dequant, subtract.getRhs());
    plan.offsetOp = subtract;
    scaledValue = subtract.getLhs();
    if (!plan.offset) {
      reason = "the dequantization subtracts something other than an input "
               "(the offset) from s·q";
      return failure();
    }
  }
  auto multiply = scaledValue.getDefiningOp<arith::MulFOp>();
  if (!multiply) {
    reason = "the dequantization does not end in s·q or s·q − o";
    return failure();
  }
  plan.scaled = multiply;
  OpOperand *lhsInput = inputOfArgument(dequant, multiply.getLhs());
  OpOperand *rhsInput = inputOfArgument(dequant, multiply.getRhs());
  if (!lhsInput == !rhsInput) {
    reason = "s·q must multiply one input (the scale) by a value computed "
             "from the weights";
    return failure();
  }
  plan.scale = lhsInput ? lhsInput : rhsInput;
  plan.quant = lhsInput ? multiply.getRhs() : multiply.getLhs();
  for (OpOperand *parameter : {plan.scale, plan.offset})
    if (parameter &&
        !body->getArgument(parameter->getOperandNumber()).hasOneUse()) {
      reason = "the scale and the offset must be used once, in s·q − o";
      return failure();
    }
  if (!multiply->hasOneUse() ||
      (plan.offsetOp && !plan.offsetOp->hasOneUse()) ||
      dequant.payloadUsesValueFromOperand(dequant.getDpsInitOperand(0)) ||
      llvm::any_of(body->without_terminator(), [](Operation &op) {
        return op.getNumRegions() || !isMemoryEffectFree(&op);
      })) {
    reason = "the dequantization's body must compute s·q − o from its inputs "
             "alone";
    return failure();
  }
  Type floatType = getElementTypeOrSelf(contraction.getResultTypes()[0]);
  if (plan.quant.getType() != floatType ||
      getElementTypeOrSelf(plan.activationUse->get().getType()) != floatType) {
    reason = "q, the activation and the result must share one float type";
    return failure();
  }
  if (quantizeActivations) {
    auto convert = plan.quant.getDefiningOp<arith::UIToFPOp>();
    if (!convert || !convert.getIn().getType().isInteger(8) ||
        !floatType.isF32()) {
      reason = "int8 dot products take q as an unsigned byte converted by "
               "arith.uitofp, and f32 activations";
      return failure();
    }
    plan.integerQuant = convert.getIn();
  }

  // Roles: n (the parallel loop), the groups (the rest of the scale's
  // loops), one element loop (innermost).
  AffineMap scaleMap = dequant.getMatchingIndexingMap(plan.scale);
  if (!scaleMap.isProjectedPermutation() ||
      (plan.offset &&
       dequant.getMatchingIndexingMap(plan.offset) != scaleMap)) {
    reason = "the scale and the offset must be read through one projected "
             "permutation (one value per row and sub-block)";
    return failure();
  }
  auto iterators = contraction.getIteratorTypesArray();
  SmallVector<unsigned> elementLoops;
  for (unsigned loop = 0; loop < dequant.getNumLoops(); ++loop) {
    int64_t dim = plan.dequantDims[loop];
    bool parallel = iterators[dim] == utils::IteratorType::parallel;
    bool readByScale = scaleMap.isFunctionOfDim(loop);
    if (parallel) {
      if (plan.n >= 0 || !readByScale) {
        reason = "the weights must have one row dim, read by the scale";
        return failure();
      }
      plan.n = dim;
    } else if (readByScale) {
      plan.groups.push_back(dim);
    } else {
      elementLoops.push_back(loop);
    }
  }
  if (plan.n < 0 || plan.groups.empty() || elementLoops.size() != 1 ||
      elementLoops.front() != dequant.getNumLoops() - 1) {
    reason = "expected a row dim, group dims read by the scale and one "
             "element dim, innermost";
    return failure();
  }
  plan.element = plan.dequantDims.back();
  if (dividingLanes && ranges[plan.element] % bytesPerLane == 0)
    plan.lanes = lanes =
        largestDivisorAtMost(ranges[plan.element] / bytesPerLane, lanes);
  if (ranges[plan.element] % (lanes * bytesPerLane) != 0) {
    reason = "the sub-block (" + std::to_string(ranges[plan.element]) +
             " elements) is not a multiple of " + std::to_string(lanes) +
             " lanes" + (quantizeActivations ? " x 4 bytes" : "");
    return failure();
  }
  AffineMap activationMap =
      contraction.getMatchingIndexingMap(plan.activationUse);
  if (!activationMap.isProjectedPermutation() ||
      activationMap.getDimPosition(activationMap.getNumResults() - 1) !=
          plan.element ||
      llvm::any_of(plan.groups, [&](int64_t group) {
        return !activationMap.isFunctionOfDim(group);
      })) {
    reason = "the activation must be read through its groups and, "
             "innermost, the element dim";
    return failure();
  }
  // The weights' own inputs: an element dim read innermost (split as the
  // activation's).
  for (OpOperand *input : dequant.getDpsInputOperands()) {
    if (input == plan.scale || input == plan.offset)
      continue;
    AffineMap map = dequant.getMatchingIndexingMap(input);
    unsigned elementLoop = dequant.getNumLoops() - 1;
    if (!map.isProjectedPermutation() ||
        (map.isFunctionOfDim(elementLoop) &&
         map.getDimPosition(map.getNumResults() - 1) != elementLoop)) {
      reason = "the weights' bytes must be read through a projected "
               "permutation, the element dim innermost";
      return failure();
    }
  }
  // The lane groups: the group dims directly outside the element dim in
  // the first byte input that reads it (contiguous with the sub-block's
  // bytes there), while the accumulator stays within 16 lanes.
  for (OpOperand *input : dequant.getDpsInputOperands()) {
    if (input == plan.scale || input == plan.offset || laneGroups <= 0)
      continue;
    AffineMap map = dequant.getMatchingIndexingMap(input);
    if (map.getNumResults() < 2 ||
        !map.isFunctionOfDim(dequant.getNumLoops() - 1))
      continue;
    int64_t accumulatorLanes = plan.lanes;
    for (int64_t result = map.getNumResults() - 2;
         result >= 0 && (int64_t)plan.laneGroups.size() < laneGroups;
         --result) {
      int64_t dim = plan.dequantDims[map.getDimPosition(result)];
      if (!llvm::is_contained(plan.groups, dim) ||
          accumulatorLanes * ranges[dim] > 16)
        break;
      accumulatorLanes *= ranges[dim];
      plan.laneGroups.push_back(dim);
    }
    break;
  }
  // In the groups' order, as the partial sums hold them.
  llvm::sort(plan.laneGroups, [&](int64_t a, int64_t b) {
    return llvm::find(plan.groups, a) < llvm::find(plan.groups, b);
  });
  // A dynamic size only where the weights are not read: the tokens.
  for (int64_t dim : llvm::seq<int64_t>(0, ranges.size())) {
    if (ShapedType::isDynamic(ranges[dim]) &&
        contraction.getMatchingIndexingMap(plan.weightsUse)
            .isFunctionOfDim(dim)) {
      reason = "the weights' dims must be static";
      return failure();
    }
  }
  return plan;
}

qforge::FactoredTwoLevel
qforge::factorTwoLevelContraction(RewriterBase &rewriter,
                                  const TwoLevelPlan &plan) {
  linalg::GenericOp contraction = plan.contraction, dequant = plan.dequant;
  MLIRContext *ctx = contraction.getContext();
  Location loc = contraction.getLoc();
  const int64_t lanes = plan.lanes;
  const bool integer = plan.quantizeActivations;
  const int64_t bytes = integer ? 4 : 1;
  const int64_t numGroups = plan.groups.size();
  Type i32 = rewriter.getI32Type();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(contraction);
  auto iterators = contraction.getIteratorTypesArray();
  SmallVector<int64_t> others; // parallel dims other than n (tokens, batch)
  for (auto [dim, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel && (int64_t)dim != plan.n)
      others.push_back(dim);
  auto dim = [&](int64_t position) { return getAffineDimExpr(position, ctx); };
  auto par = utils::IteratorType::parallel;
  auto red = utils::IteratorType::reduction;

  // Contraction dims -> loops of a new generic; the element dim becomes
  // (j, lane).
  struct Loops {
    DenseMap<int64_t, int64_t> position;
    int64_t j = -1, lane = -1, byte = -1, count = 0;
    SmallVector<AffineExpr> remap(ArrayRef<int64_t> dims, MLIRContext *ctx,
                                  int64_t element) const {
      SmallVector<AffineExpr> exprs;
      for (int64_t d : dims) {
        if (d == element) {
          exprs.push_back(getAffineDimExpr(j, ctx));
          exprs.push_back(getAffineDimExpr(lane, ctx));
          if (byte >= 0)
            exprs.push_back(getAffineDimExpr(byte, ctx));
        } else {
          exprs.push_back(getAffineDimExpr(position.lookup(d), ctx));
        }
      }
      return exprs;
    }
  };
  auto resultsOf = [](AffineMap map) {
    SmallVector<int64_t> dims;
    for (AffineExpr expr : map.getResults())
      dims.push_back(cast<AffineDimExpr>(expr).getPosition());
    return dims;
  };
  auto dequantDimsOf = [&](AffineMap map) {
    SmallVector<int64_t> dims;
    for (int64_t loop : resultsOf(map))
      dims.push_back(plan.dequantDims[loop]);
    return dims;
  };

  OpOperand *init = contraction.getDpsInitOperand(0);
  SmallVector<int64_t> initDims =
      resultsOf(contraction.getMatchingIndexingMap(init));
  auto resultType = cast<RankedTensorType>(init->get().getType());
  Type floatType = resultType.getElementType();
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();

  SmallVector<int64_t> activationDims =
      resultsOf(contraction.getMatchingIndexingMap(plan.activationUse));
  // amax's dims: the activation's without the element, in its order (xq's
  // may differ).
  SmallVector<int64_t> maxDims(activationDims.begin(),
                               std::prev(activationDims.end()));
  FactoredTwoLevel result;
  // Integer mode: x quantized per sub-block (its element dim reduced).
  Value activation = plan.activationUse->get(), activationMax;
  if (integer) {
    auto activationType = cast<RankedTensorType>(activation.getType());
    SmallVector<bool> reduced(activationType.getRank(), false);
    reduced.back() = true;
    // xq stores the lane groups directly outside the element dim, so that
    // a step's bytes (a lane group's sub-blocks) are contiguous, as the
    // weights' are (with one lane group, what the strategies ask; with
    // more, in the activation's order, which may differ from the
    // weights').
    SmallVector<unsigned> storedOrder;
    if (!plan.laneGroups.empty()) {
      SmallVector<unsigned> laneGroupPositions;
      for (auto [position, d] : llvm::enumerate(activationDims)) {
        if (d == plan.element)
          continue;
        if (llvm::is_contained(plan.laneGroups, d))
          laneGroupPositions.push_back(position);
        else
          storedOrder.push_back(position);
      }
      llvm::append_range(storedOrder, laneGroupPositions);
      storedOrder.push_back(activationDims.size() - 1);
      SmallVector<int64_t> storedDims;
      for (unsigned position : storedOrder)
        storedDims.push_back(activationDims[position]);
      activationDims = storedDims;
    }
    QuantizedActivation quantized =
        quantizeActivation(rewriter, loc, activation, reduced, storedOrder);
    result.activationMax = quantized.max;
    result.quantizedActivation = quantized.quantized;
    activationMax = quantized.max->getResult(0);
    activation = quantized.quantized->getResult(0);
  }
  activation = splitLastDim(rewriter, loc, activation, lanes, bytes);

  // The activation's scale amax/127 (integer mode).
  auto activationScale = [&](OpBuilder &b, Location l, Value max) {
    Value inverseLimit = arith::ConstantOp::create(
        b, l, floatType, b.getFloatAttr(floatType, 1.0 / 127.0));
    return arith::MulFOp::create(
        b, l, arith::BitcastOp::create(b, l, floatType, max), inverseLimit);
  };

  // xs: one sum per sub-block, in two steps (vectors the lowering takes):
  // per lane, loops [groups..., j, activation's other dims..., lane(,
  // byte)]; then over the lanes, loops [groups..., other dims..., lane].
  Value activationSums;
  if (plan.offset) {
    Loops loops;
    for (auto [i, group] : llvm::enumerate(plan.groups))
      loops.position[group] = i;
    loops.j = numGroups;
    loops.count = numGroups + 1;
    for (int64_t d : activationDims)
      if (d != plan.element && !llvm::is_contained(plan.groups, d))
        loops.position[d] = loops.count++;
    loops.lane = loops.count++;
    if (integer)
      loops.byte = loops.count++;
    SmallVector<AffineExpr> in = loops.remap(activationDims, ctx, plan.element);
    SmallVector<AffineExpr> laneOut, out;
    SmallVector<int64_t> laneShape, shape;
    auto activationType = cast<RankedTensorType>(activation.getType());
    for (auto [index, expr] : llvm::enumerate(in)) {
      if (expr == dim(loops.j) || (integer && expr == dim(loops.byte)))
        continue;
      laneOut.push_back(expr);
      laneShape.push_back(activationType.getDimSize(index));
      if (expr != dim(loops.lane)) {
        out.push_back(expr);
        shape.push_back(activationType.getDimSize(index));
      }
    }
    SmallVector<utils::IteratorType> loopTypes(loops.count, par);
    loopTypes[loops.j] = red;
    if (integer)
      loopTypes[loops.byte] = red;
    result.activationLaneSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(laneShape, floatType)},
        ValueRange{activation},
        ValueRange{zeroFilled(rewriter, loc, laneShape, floatType)},
        ArrayRef<AffineMap>{AffineMap::get(loops.count, 0, in, ctx),
                            AffineMap::get(loops.count, 0, laneOut, ctx)},
        loopTypes, [&](OpBuilder &b, Location l, ValueRange args) {
          buildActivationSumBody(b, l, args, integer, floatType);
        });
    // Over the lanes: the lane-wise sums' loops without j (and bytes), the
    // lane last.
    SmallVector<AffineExpr> laneIn, sumOut;
    int64_t count = 0;
    DenseMap<unsigned, unsigned> renumber;
    for (int64_t position = 0; position < loops.count; ++position)
      if (position != loops.j && position != loops.byte &&
          position != loops.lane)
        renumber[position] = count++;
    renumber[loops.lane] = count++;
    auto renumbered = [&](ArrayRef<AffineExpr> exprs) {
      SmallVector<AffineExpr> result;
      for (AffineExpr expr : exprs)
        result.push_back(
            dim(renumber.lookup(cast<AffineDimExpr>(expr).getPosition())));
      return result;
    };
    SmallVector<utils::IteratorType> sumTypes(count, par);
    sumTypes.back() = red;
    // In integer mode each sub-block's sum is scaled by its amax/127 here,
    // once per call (amax: the activation's dims without the element, in
    // the activation's order; the sums in xq's, which lane groups permute).
    SmallVector<Value> sumInputs = {result.activationLaneSums->getResult(0)};
    SmallVector<AffineMap> sumMaps = {
        AffineMap::get(count, 0, renumbered(laneOut), ctx)};
    if (integer) {
      SmallVector<AffineExpr> maxExprs;
      for (int64_t d : maxDims)
        maxExprs.push_back(dim(loops.position.lookup(d)));
      sumInputs.push_back(activationMax);
      sumMaps.push_back(AffineMap::get(count, 0, renumbered(maxExprs), ctx));
    }
    sumMaps.push_back(AffineMap::get(count, 0, renumbered(out), ctx));
    result.activationSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(shape, floatType)},
        sumInputs, ValueRange{zeroFilled(rewriter, loc, shape, floatType)},
        sumMaps, sumTypes, [&](OpBuilder &b, Location l, ValueRange args) {
          Value value = args[0];
          if (integer)
            value = arith::MulFOp::create(b, l, value,
                                          activationScale(b, l, args[1]));
          linalg::YieldOp::create(
              b, l,
              arith::AddFOp::create(b, l, value, args.back()).getResult());
        });
    activationSums = result.activationSums->getResult(0);
  }

  // p: loops [n, groups..., j, others..., lane].
  Loops partial;
  partial.position[plan.n] = 0;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    partial.position[group] = 1 + i;
  partial.j = 1 + numGroups;
  partial.count = partial.j + 1;
  for (int64_t d : others)
    partial.position[d] = partial.count++;
  partial.lane = partial.count++;
  if (integer)
    partial.byte = partial.count++;
  Type partialType = integer ? i32 : floatType;
  SmallVector<int64_t> partialShape(resultType.getShape());
  for (int64_t group : plan.groups)
    partialShape.push_back(ranges[group]);
  partialShape.push_back(lanes);
  {
    SmallVector<Value> inputs = {activation};
    SmallVector<AffineMap> maps = {
        AffineMap::get(partial.count, 0,
                       partial.remap(activationDims, ctx, plan.element), ctx)};
    SmallVector<OpOperand *> weightInputs;
    for (OpOperand *input : dequant.getDpsInputOperands()) {
      if (input == plan.scale || input == plan.offset)
        continue;
      weightInputs.push_back(input);
      SmallVector<int64_t> dims =
          dequantDimsOf(dequant.getMatchingIndexingMap(input));
      Value value = input->get();
      if (!dims.empty() && dims.back() == plan.element)
        value = splitLastDim(rewriter, loc, value, lanes, bytes);
      inputs.push_back(value);
      maps.push_back(AffineMap::get(
          partial.count, 0, partial.remap(dims, ctx, plan.element), ctx));
    }
    SmallVector<AffineExpr> out = partial.remap(initDims, ctx, plan.element);
    for (int64_t i = 0; i < numGroups; ++i)
      out.push_back(dim(1 + i));
    out.push_back(dim(partial.lane));
    maps.push_back(AffineMap::get(partial.count, 0, out, ctx));
    SmallVector<utils::IteratorType> loopTypes(partial.count, par);
    loopTypes[partial.j] = red;
    if (integer)
      loopTypes[partial.byte] = red;
    Block *body = dequant.getBlock();
    result.partialSums = linalg::GenericOp::create(
        rewriter, loc,
        TypeRange{RankedTensorType::get(partialShape, partialType)}, inputs,
        ValueRange{zeroFilled(rewriter, loc, partialShape, partialType)}, maps,
        loopTypes, [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping mapping;
          for (auto [index, input] : llvm::enumerate(weightInputs))
            mapping.map(body->getArgument(input->getOperandNumber()),
                        args[1 + index]);
          for (Operation &op : body->without_terminator()) {
            if (&op == plan.scaled || &op == plan.offsetOp)
              continue;
            if (auto index = dyn_cast<linalg::IndexOp>(op)) {
              int64_t d = plan.dequantDims[index.getDim()];
              Value value;
              if (d == plan.element) {
                // e = (j · lanes + lane) · bytes + byte.
                Value j = linalg::IndexOp::create(b, l, partial.j);
                Value lane = linalg::IndexOp::create(b, l, partial.lane);
                Value width = arith::ConstantIndexOp::create(b, l, lanes);
                value = arith::AddIOp::create(
                    b, l, arith::MulIOp::create(b, l, j, width), lane);
                if (integer) {
                  Value four = arith::ConstantIndexOp::create(b, l, bytes);
                  value = arith::AddIOp::create(
                      b, l, arith::MulIOp::create(b, l, value, four),
                      linalg::IndexOp::create(b, l, partial.byte));
                }
              } else {
                value =
                    linalg::IndexOp::create(b, l, partial.position.lookup(d));
              }
              mapping.map(index.getResult(), value);
              continue;
            }
            b.clone(op, mapping);
          }
          if (integer) {
            // u8 q times s8 x, summed in i32: vpdpbusd's operands.
            Value w = arith::ExtUIOp::create(b, l, i32,
                                             mapping.lookup(plan.integerQuant));
            Value x = arith::ExtSIOp::create(b, l, i32, args[0]);
            Value product = arith::MulIOp::create(b, l, w, x);
            linalg::YieldOp::create(
                b, l,
                arith::AddIOp::create(b, l, product, args.back()).getResult());
            return;
          }
          Value product =
              arith::MulFOp::create(b, l, args[0], mapping.lookup(plan.quant));
          linalg::YieldOp::create(
              b, l,
              arith::AddFOp::create(b, l, args.back(), product).getResult());
        });
  }

  // acc: loops [n, groups..., others..., lane].
  Loops groups;
  groups.position[plan.n] = 0;
  for (auto [i, group] : llvm::enumerate(plan.groups))
    groups.position[group] = 1 + i;
  groups.count = 1 + numGroups;
  for (int64_t d : others)
    groups.position[d] = groups.count++;
  groups.lane = groups.count++;
  // The lane groups stay in the accumulator, before its lanes.
  SmallVector<int64_t> accShape(resultType.getShape());
  SmallVector<AffineExpr> accExprs = groups.remap(initDims, ctx, plan.element);
  for (int64_t laneGroup : plan.laneGroups) {
    accShape.push_back(ranges[laneGroup]);
    accExprs.push_back(dim(groups.position.lookup(laneGroup)));
  }
  accShape.push_back(lanes);
  accExprs.push_back(dim(groups.lane));
  AffineMap parameterMap = AffineMap::get(
      groups.count, 0,
      groups.remap(dequantDimsOf(dequant.getMatchingIndexingMap(plan.scale)),
                   ctx, plan.element),
      ctx);
  // Integer mode: sa[n, g.., tokens..] = s[n, g..] · amax/127[g.., ..],
  // elementwise (a strategy decodes a super-block's eight at once).
  Value scale = plan.scale->get();
  if (integer) {
    SmallVector<int64_t> shape = {ranges[plan.n]};
    for (int64_t group : plan.groups)
      shape.push_back(ranges[group]);
    for (int64_t d : others)
      shape.push_back(ranges[d]);
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(groups.count - 1, ctx);
    // Loops [n, groups..., others...]: the group sums' without the lane.
    AffineMap scaleMap =
        AffineMap::get(groups.count - 1, 0, parameterMap.getResults(), ctx);
    SmallVector<AffineExpr> maxExprs;
    for (int64_t d : maxDims)
      maxExprs.push_back(dim(groups.position.lookup(d)));
    result.activationScaledScales = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(shape, floatType)},
        ValueRange{scale, activationMax},
        ValueRange{tensor::EmptyOp::create(rewriter, loc, shape, floatType)},
        ArrayRef<AffineMap>{scaleMap,
                            AffineMap::get(groups.count - 1, 0, maxExprs, ctx),
                            identity},
        SmallVector<utils::IteratorType>(groups.count - 1, par),
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l,
              arith::MulFOp::create(b, l, args[0],
                                    activationScale(b, l, args[1]))
                  .getResult());
        });
    scale = result.activationScaledScales->getResult(0);
    parameterMap = AffineMap::getMultiDimIdentityMap(groups.count, ctx)
                       .getMajorSubMap(groups.count - 1);
  }
  {
    SmallVector<Value> inputs = {scale};
    SmallVector<AffineMap> maps = {parameterMap};
    SmallVector<AffineExpr> pExprs = groups.remap(initDims, ctx, plan.element);
    for (int64_t i = 0; i < numGroups; ++i)
      pExprs.push_back(dim(1 + i));
    pExprs.push_back(dim(groups.lane));
    inputs.push_back(result.partialSums->getResult(0));
    maps.push_back(AffineMap::get(groups.count, 0, pExprs, ctx));
    maps.push_back(AffineMap::get(groups.count, 0, accExprs, ctx));
    SmallVector<utils::IteratorType> loopTypes(groups.count, par);
    for (auto [i, group] : llvm::enumerate(plan.groups))
      if (!llvm::is_contained(plan.laneGroups, group))
        loopTypes[1 + i] = red;
    result.groupSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{RankedTensorType::get(accShape, floatType)},
        inputs, ValueRange{zeroFilled(rewriter, loc, accShape, floatType)},
        maps, loopTypes, [&](OpBuilder &b, Location l, ValueRange args) {
          // s·p accumulated; in integer mode p sums the quantized
          // activation, and s is sa.
          Value partialSum = args[1];
          if (integer)
            partialSum = arith::SIToFPOp::create(b, l, floatType, partialSum);
          Value term = arith::MulFOp::create(b, l, args[0], partialSum);
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args.back(), term).getResult());
        });
  }

  // The offsets, in two steps: per row and inner group (every group dim
  // but the first, g_1), off[.., n, g_2..] = Σ_g_1 −o[n, g..] · xs[g.., ..]
  // -- one product per sub-block (xs summed over the lanes once per call),
  // carried across g_1 as a vector of the inner groups, not reduced per
  // step; then out[.., n] = init + Σ_g_2.. off. Loops [n, others...,
  // groups...], and [n, others..., inner groups...].
  Value rowsInit = init->get();
  if (plan.offset) {
    Loops offsets;
    offsets.position[plan.n] = 0;
    offsets.count = 1;
    for (int64_t d : others)
      offsets.position[d] = offsets.count++;
    int64_t firstGroup = offsets.count;
    for (int64_t group : plan.groups)
      offsets.position[group] = offsets.count++;
    SmallVector<Value> inputs = {plan.offset->get(), activationSums};
    SmallVector<AffineExpr> xsExprs;
    for (int64_t d : activationDims)
      if (d != plan.element)
        xsExprs.push_back(dim(offsets.position.lookup(d)));
    SmallVector<AffineExpr> partialExprs =
        offsets.remap(initDims, ctx, plan.element);
    SmallVector<int64_t> partialShape(resultType.getShape());
    for (int64_t i = 1; i < numGroups; ++i) {
      partialExprs.push_back(dim(firstGroup + i));
      partialShape.push_back(ranges[plan.groups[i]]);
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(
            offsets.count, 0,
            offsets.remap(
                dequantDimsOf(dequant.getMatchingIndexingMap(plan.offset)), ctx,
                plan.element),
            ctx),
        AffineMap::get(offsets.count, 0, xsExprs, ctx),
        AffineMap::get(offsets.count, 0, partialExprs, ctx)};
    SmallVector<utils::IteratorType> loopTypes(offsets.count, par);
    loopTypes[firstGroup] = red;
    result.offsetSums = linalg::GenericOp::create(
        rewriter, loc,
        TypeRange{RankedTensorType::get(partialShape, floatType)}, inputs,
        ValueRange{zeroFilled(rewriter, loc, partialShape, floatType)}, maps,
        loopTypes, [&](OpBuilder &b, Location l, ValueRange args) {
          // −o·xs accumulated (an add, a reduction the vectorizer takes);
          // in integer mode xs is already scaled by amax/127.
          Value term = arith::NegFOp::create(
              b, l, arith::MulFOp::create(b, l, args[0], args[1]));
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args.back(), term).getResult());
        });
    // out = init + Σ over the inner groups.
    int64_t count = offsets.count - 1;
    SmallVector<AffineExpr> in, out;
    for (AffineExpr expr : partialExprs) {
      unsigned position = cast<AffineDimExpr>(expr).getPosition();
      in.push_back(
          dim(position > (unsigned)firstGroup ? position - 1 : position));
    }
    for (AffineExpr expr : offsets.remap(initDims, ctx, plan.element))
      out.push_back(expr);
    SmallVector<utils::IteratorType> rowTypes(count, par);
    for (int64_t i = firstGroup; i < count; ++i)
      rowTypes[i] = red;
    result.offsetRows = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{result.offsetSums->getResult(0)}, ValueRange{rowsInit},
        ArrayRef<AffineMap>{AffineMap::get(count, 0, in, ctx),
                            AffineMap::get(count, 0, out, ctx)},
        rowTypes, [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[1], args[0]).getResult());
        });
    rowsInit = result.offsetRows->getResult(0);
  }

  // out[.., n] += Σ_lane acc: loops [n, others..., lane groups..., lane].
  {
    Loops rows;
    rows.position[plan.n] = 0;
    rows.count = 1;
    for (int64_t d : others)
      rows.position[d] = rows.count++;
    int64_t firstLaneGroup = rows.count;
    rows.count += plan.laneGroups.size();
    rows.lane = rows.count++;
    SmallVector<AffineExpr> out = rows.remap(initDims, ctx, plan.element);
    SmallVector<AffineExpr> in = out;
    for (int64_t i = firstLaneGroup; i < rows.lane; ++i)
      in.push_back(dim(i));
    in.push_back(dim(rows.lane));
    SmallVector<utils::IteratorType> loopTypes(rows.count, par);
    for (int64_t i = firstLaneGroup; i <= rows.lane; ++i)
      loopTypes[i] = red;
    result.rowSums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{result.groupSums->getResult(0)}, ValueRange{rowsInit},
        ArrayRef<AffineMap>{AffineMap::get(rows.count, 0, in, ctx),
                            AffineMap::get(rows.count, 0, out, ctx)},
        loopTypes, [](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, args[1], args[0]).getResult());
        });
  }
  rewriter.replaceOp(contraction, result.rowSums->getResults());
  if (dequant->use_empty())
    rewriter.eraseOp(dequant);
  return result;
}
