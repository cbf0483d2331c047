//===- TwoLevelAsSeedBytes.cpp - K-quant blocks as the 8-bit seed form ----===//

#include "Rewrites/TwoLevelAsSeedBytes.h"
#include "Rewrites/FactorTwoLevelContraction.h"
#include "Rewrites/SplitParameterPacking.h"
#include "Rewrites/TwoLevelPairs.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

using namespace mlir;

namespace {
/// Whether `a` (in the body of generic `first`) and `b` (in `second`'s)
/// are the same computation: the same ops on the same block arguments by
/// position, or the same values from outside.
/// Pairs already found the same (a DAG that reuses a value is compared
/// once per pair, not once per path).
using ComparedPairs = llvm::DenseSet<std::pair<Value, Value>>;

bool sameComputation(Value a, linalg::GenericOp first, Value b,
                     linalg::GenericOp second, ComparedPairs &same,
                     unsigned depth = 0) {
  if (depth > 32)
    return false;
  if (same.contains({a, b}))
    return true;
  auto argumentA = dyn_cast<BlockArgument>(a);
  auto argumentB = dyn_cast<BlockArgument>(b);
  if (argumentA || argumentB)
    return argumentA && argumentB && argumentA.getOwner() == first.getBlock() &&
           argumentB.getOwner() == second.getBlock() &&
           argumentA.getArgNumber() == argumentB.getArgNumber();
  Operation *opA = a.getDefiningOp(), *opB = b.getDefiningOp();
  bool insideA = first->isProperAncestor(opA);
  bool insideB = second->isProperAncestor(opB);
  if (!insideA || !insideB) {
    if (insideA || insideB)
      return false;
    Attribute constantA, constantB;
    return a == b || (matchPattern(a, m_Constant(&constantA)) &&
                      matchPattern(b, m_Constant(&constantB)) &&
                      constantA == constantB && a.getType() == b.getType());
  }
  if (opA->getName() != opB->getName() ||
      opA->getAttrDictionary() != opB->getAttrDictionary() ||
      opA->getNumOperands() != opB->getNumOperands() ||
      opA->getResultTypes() != opB->getResultTypes() || opA->getNumRegions() ||
      !isMemoryEffectFree(opA) ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [operandA, operandB] :
       llvm::zip(opA->getOperands(), opB->getOperands()))
    if (!sameComputation(operandA, first, operandB, second, same, depth + 1))
      return false;
  same.insert({a, b});
  return true;
}

/// When `offset` is c·s of `scale`: two generics on the same inputs through
/// the same maps, the offset's value its scale's computation times a
/// constant c. Returns c.
std::optional<double> offsetMultipleOfScale(Value scale, Value offset) {
  auto scaleOp = scale.getDefiningOp<linalg::GenericOp>();
  auto offsetOp = offset.getDefiningOp<linalg::GenericOp>();
  if (!scaleOp || !offsetOp || scaleOp->getNumResults() != 1 ||
      offsetOp->getNumResults() != 1 ||
      scaleOp.getDpsInputs() != offsetOp.getDpsInputs() ||
      scaleOp.getIndexingMapsArray() != offsetOp.getIndexingMapsArray() ||
      scaleOp.getIteratorTypesArray() != offsetOp.getIteratorTypesArray() ||
      scaleOp.getNumParallelLoops() != scaleOp.getNumLoops() ||
      scale.getType() != offset.getType() ||
      scaleOp.payloadUsesValueFromOperand(scaleOp.getDpsInitOperand(0)) ||
      offsetOp.payloadUsesValueFromOperand(offsetOp.getDpsInitOperand(0)))
    return std::nullopt;
  auto multiply = offsetOp.getBlock()
                      ->getTerminator()
                      ->getOperand(0)
                      .getDefiningOp<arith::MulFOp>();
  if (!multiply)
    return std::nullopt;
  FloatAttr constant;
  Value scaled;
  if (matchPattern(multiply.getRhs(), m_Constant(&constant)))
    scaled = multiply.getLhs();
  else if (matchPattern(multiply.getLhs(), m_Constant(&constant)))
    scaled = multiply.getRhs();
  else
    return std::nullopt;
  ComparedPairs same;
  if (!sameComputation(scaleOp.getBlock()->getTerminator()->getOperand(0),
                       scaleOp, scaled, offsetOp, same))
    return std::nullopt;
  return constant.getValueAsDouble();
}

/// Whether `value`, in `generic`'s body, is computed by side-effect free
/// ops of the body from the block arguments in `inputs`, loop indices and
/// constants alone.
bool computedFrom(Value value, linalg::GenericOp generic,
                  const llvm::SmallPtrSetImpl<Value> &inputs,
                  llvm::SmallPtrSetImpl<Value> &checked, unsigned depth = 0) {
  if (depth > 64)
    return false;
  if (checked.contains(value))
    return true;
  if (isa<BlockArgument>(value))
    return inputs.contains(value);
  Operation *op = value.getDefiningOp();
  if (!generic->isProperAncestor(op))
    return matchPattern(value, m_Constant());
  if (op->getNumRegions() || !isMemoryEffectFree(op))
    return false;
  if (!llvm::all_of(op->getOperands(), [&](Value operand) {
        return computedFrom(operand, generic, inputs, checked, depth + 1);
      }))
    return false;
  checked.insert(value);
  return true;
}
} // namespace

FailureOr<qforge::TwoLevelAsSeedBytesPlan>
qforge::analyzeTwoLevelAsSeedBytes(linalg::GenericOp contraction,
                                   std::string &reason) {
  FailureOr<TwoLevelPlan> twoLevel = analyzeTwoLevelContraction(
      contraction, /*lanes=*/1, reason, /*quantizeActivations=*/false,
      /*dividingLanes=*/false, /*laneGroups=*/0, /*dynamicTokens=*/true);
  if (failed(twoLevel))
    return failure();
  TwoLevelAsSeedBytesPlan plan;
  plan.contraction = contraction;
  plan.dequant = twoLevel->dequant;

  // The loops (m, n, g_1, .., g_r, e): x read as (m, g.., e), the weights
  // as (n, g.., e), the result (m, n); the dequantization's loops in the
  // weights' order, its scale and offset read through (n, g..).
  MLIRContext *ctx = contraction.getContext();
  unsigned loops = contraction.getNumLoops();
  auto dims = [&](unsigned count, ArrayRef<unsigned> positions) {
    SmallVector<AffineExpr> exprs;
    for (unsigned position : positions)
      exprs.push_back(getAffineDimExpr(position, ctx));
    return AffineMap::get(count, 0, exprs, ctx);
  };
  SmallVector<unsigned> activationDims = {0}, weightDims;
  for (unsigned dim = 2; dim < loops; ++dim)
    activationDims.push_back(dim);
  for (unsigned dim = 1; dim < loops; ++dim)
    weightDims.push_back(dim);
  SmallVector<int64_t> dequantDims(weightDims.begin(), weightDims.end());
  SmallVector<int64_t> groups;
  for (unsigned dim = 2; dim + 1 < loops; ++dim)
    groups.push_back(dim);
  if (loops < 4 ||
      contraction.getIndexingMapsArray() !=
          SmallVector<AffineMap>{dims(loops, activationDims),
                                 dims(loops, weightDims),
                                 dims(loops, {0, 1})} ||
      twoLevel->weightsUse->getOperandNumber() != 1 ||
      twoLevel->dequantDims != dequantDims || twoLevel->groups != groups ||
      twoLevel->element != int64_t(loops) - 1 ||
      !getElementTypeOrSelf(contraction.getResultTypes()[0]).isF32()) {
    reason = "not the loops (m, n, sub-blocks.., element) in the "
             "activation's order";
    return failure();
  }
  if (!twoLevel->offset) {
    reason = "no offset";
    return failure();
  }
  linalg::GenericOp dequant = twoLevel->dequant;
  SmallVector<unsigned> scaleDims;
  for (unsigned dim = 0; dim + 1 < dequant.getNumLoops(); ++dim)
    scaleDims.push_back(dim);
  AffineMap perSubBlock = dims(dequant.getNumLoops(), scaleDims);
  if (dequant.getMatchingIndexingMap(twoLevel->scale) != perSubBlock ||
      dequant.getMatchingIndexingMap(twoLevel->offset) != perSubBlock ||
      !cast<RankedTensorType>(dequant.getResultTypes()[0]).hasStaticShape()) {
    reason = "the scale and offset are not one per row and sub-block";
    return failure();
  }

  // The offset c·s, c a whole number of at most 255 in magnitude (so that
  // q − c is exact): the seed's zero-point form, ggml's own rounding. Any
  // other offset (q4_K's dmin·m) stays an offset: the seed's offset form
  // s·q − o, whose packed factoring subtracts o·Σx per group.
  std::optional<double> zeroPoint =
      offsetMultipleOfScale(twoLevel->scale->get(), twoLevel->offset->get());
  if (zeroPoint && *zeroPoint == std::trunc(*zeroPoint) &&
      std::abs(*zeroPoint) <= 255)
    plan.zeroPoint = *zeroPoint;
  else
    plan.offset = twoLevel->offset->get();
  plan.scale = twoLevel->scale->get();
  auto scaleType = dyn_cast<RankedTensorType>(plan.scale.getType());
  if (!scaleType || !scaleType.getElementType().isF32() ||
      !scaleType.hasStaticShape() ||
      (plan.offset && plan.offset.getType() != scaleType)) {
    reason = "the scale and offset are not static f32 tensors of one shape";
    return failure();
  }

  // q: an unsigned integer of at most 8 bits, computed from the other
  // inputs' elements, the loop indices and constants.
  auto convert = twoLevel->quant.getDefiningOp<arith::UIToFPOp>();
  llvm::SmallPtrSet<Value, 4> quantArguments;
  for (OpOperand *input : dequant.getDpsInputOperands()) {
    if (input == twoLevel->scale || input == twoLevel->offset)
      continue;
    plan.quantInputs.push_back(input);
    quantArguments.insert(
        dequant.getBlock()->getArgument(input->getOperandNumber()));
  }
  // (Computed in the body, or an input's element itself: the rewrite
  // clones the body's ops that make it.)
  llvm::SmallPtrSet<Value, 16> checked;
  if (!convert || !convert.getIn().getType().isInteger(8) ||
      plan.quantInputs.empty() ||
      !(quantArguments.contains(convert.getIn()) ||
        dequant->isProperAncestor(convert.getIn().getDefiningOp())) ||
      !computedFrom(convert.getIn(), dequant, quantArguments, checked)) {
    reason = "q is not an unsigned byte computed from the weights' elements";
    return failure();
  }
  plan.integerQuant = convert.getIn();

  // Every parameter a computation on one argument, the same one: the
  // packing takes them all into <f>_pack_weights.
  BlockArgument argument = getParameterArgument(plan.scale);
  for (OpOperand *input : plan.quantInputs)
    if (getParameterArgument(input->get()) != argument)
      argument = nullptr;
  if (plan.offset && getParameterArgument(plan.offset) != argument)
    argument = nullptr;
  if (!argument) {
    reason = "the quants, scales and offsets are not computed from one "
             "argument alone";
    return failure();
  }

  // The activation: an M x K tensor reshaped to the contraction's dims.
  auto expand = contraction.getDpsInputOperand(0)
                    ->get()
                    .getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand || expand.getSrcType().getRank() != 2 ||
      expand.getReassociationIndices().front() != ReassociationIndices{0}) {
    reason = "the activation is not an M x K tensor reshaped";
    return failure();
  }
  plan.activation = expand.getSrc();
  auto initType =
      cast<RankedTensorType>(contraction.getDpsInitOperand(0)->get().getType());
  if (expand.getSrcType().getDimSize(0) != initType.getDimSize(0) ||
      ShapedType::isDynamic(initType.getDimSize(1))) {
    reason = "the activation and the result disagree on M";
    return failure();
  }
  return plan;
}

linalg::GenericOp
qforge::rewriteTwoLevelAsSeedBytes(RewriterBase &rewriter,
                                   const TwoLevelAsSeedBytesPlan &plan) {
  linalg::GenericOp contraction = plan.contraction, dequant = plan.dequant;
  MLIRContext *ctx = contraction.getContext();
  Location loc = contraction.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(contraction);
  Type f32 = rewriter.getF32Type(), i8 = rewriter.getI8Type();
  auto dequantType = cast<RankedTensorType>(dequant.getResultTypes()[0]);
  ArrayRef<int64_t> dequantShape = dequantType.getShape();
  unsigned rank = dequantShape.size();
  int64_t rows = dequantShape.front(), elements = dequantShape.back();
  int64_t subBlocks = 1;
  for (int64_t size : dequantShape.drop_front().drop_back())
    subBlocks *= size;

  // q as a byte per weight, over the dequantization's loops: its inputs
  // and integer ops, cloned.
  SmallVector<Value> quantInputs;
  SmallVector<AffineMap> quantMaps;
  for (OpOperand *input : plan.quantInputs) {
    quantInputs.push_back(input->get());
    quantMaps.push_back(dequant.getMatchingIndexingMap(input));
  }
  quantMaps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Value quantInit = tensor::EmptyOp::create(rewriter, loc, dequantShape, i8);
  auto quant = linalg::GenericOp::create(
      rewriter, loc, quantInit.getType(), quantInputs, ValueRange{quantInit},
      quantMaps, dequant.getIteratorTypesArray(),
      [&](OpBuilder &body, Location bodyLoc, ValueRange args) {
        IRMapping mapping;
        for (auto [index, input] : llvm::enumerate(plan.quantInputs))
          mapping.map(
              dequant.getBlock()->getArgument(input->getOperandNumber()),
              args[index]);
        // The ops q needs, in the body's order.
        llvm::SetVector<Operation *> needed;
        SmallVector<Value> worklist = {plan.integerQuant};
        while (!worklist.empty()) {
          Operation *op = worklist.pop_back_val().getDefiningOp();
          if (!op || !dequant->isProperAncestor(op) || !needed.insert(op))
            continue;
          llvm::append_range(worklist, op->getOperands());
        }
        for (Operation &op : dequant.getBlock()->without_terminator())
          if (needed.contains(&op))
            body.clone(op, mapping);
        linalg::YieldOp::create(body, bodyLoc,
                                mapping.lookup(plan.integerQuant));
      });

  // N x G x E bytes, N x G scales, a splat zero-point.
  ReassociationIndices subBlockDims;
  for (unsigned dim = 1; dim + 1 < rank; ++dim)
    subBlockDims.push_back(dim);
  Value weights = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({rows, subBlocks, elements}, i8),
      quant.getResult(0),
      ArrayRef<ReassociationIndices>{{0}, subBlockDims, {int64_t(rank) - 1}});
  auto perGroupType = RankedTensorType::get({rows, subBlocks}, f32);
  auto perGroupValue = [&](Value value) -> Value {
    if (rank <= 3)
      return value;
    return tensor::CollapseShapeOp::create(
               rewriter, loc, perGroupType, value,
               ArrayRef<ReassociationIndices>{{0}, subBlockDims})
        .getResult();
  };
  Value scale = perGroupValue(plan.scale);
  // The zero-point c, or the offset o.
  Value shift =
      plan.offset
          ? perGroupValue(plan.offset)
          : arith::ConstantOp::create(
                rewriter, loc,
                DenseElementsAttr::get(
                    perGroupType, rewriter.getF32FloatAttr(plan.zeroPoint)))
                .getResult();

  // w[n, g, e] = (q − c)·s, the seed's dequantization, or q·s − o.
  AffineExpr n, g, e;
  bindDims(ctx, n, g, e);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(3, ctx);
  AffineMap perGroup = AffineMap::get(3, 0, {n, g}, ctx);
  Value weightsInit =
      tensor::EmptyOp::create(rewriter, loc, {rows, subBlocks, elements}, f32);
  auto seedDequant = linalg::GenericOp::create(
      rewriter, loc, weightsInit.getType(), ValueRange{weights, scale, shift},
      ValueRange{weightsInit},
      SmallVector<AffineMap>{identity, perGroup, perGroup, identity},
      SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
      [&](OpBuilder &body, Location bodyLoc, ValueRange args) {
        Value wide =
            arith::ExtUIOp::create(body, bodyLoc, body.getI32Type(), args[0]);
        Value value = arith::UIToFPOp::create(body, bodyLoc, f32, wide);
        Value dequantized;
        if (plan.offset) {
          Value scaled = arith::MulFOp::create(body, bodyLoc, value, args[1]);
          dequantized = arith::SubFOp::create(body, bodyLoc, scaled, args[2]);
        } else {
          Value centered = arith::SubFOp::create(body, bodyLoc, value, args[2]);
          dequantized = arith::MulFOp::create(body, bodyLoc, centered, args[1]);
        }
        linalg::YieldOp::create(body, bodyLoc, dequantized);
      });

  // The activation 1 x M x G x E, one reshape of its M x K source.
  auto sourceType = cast<RankedTensorType>(plan.activation.getType());
  int64_t tokens = sourceType.getDimSize(0);
  Value activation = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({1, tokens, subBlocks, elements}, f32),
      plan.activation, ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});

  // The result 1 x M x N from the old init (ZeroFilled.h).
  Value init = contraction.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(init.getType());
  auto expandedInitType =
      RankedTensorType::get({1, tokens, resultType.getDimSize(1)}, f32);
  Value expandedInit =
      refillEmptyInit(rewriter, loc, init, expandedInitType.getShape(), f32,
                      plan.activation, 0);
  if (!expandedInit)
    expandedInit = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedInitType, init,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}});

  AffineExpr batch, token, row, group, element;
  bindDims(ctx, batch, token, row, group, element);
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  auto seed = linalg::GenericOp::create(
      rewriter, loc, expandedInit.getType(),
      ValueRange{activation, seedDequant.getResult(0)},
      ValueRange{expandedInit},
      SmallVector<AffineMap>{
          AffineMap::get(5, 0, {batch, token, group, element}, ctx),
          AffineMap::get(5, 0, {row, group, element}, ctx),
          AffineMap::get(5, 0, {batch, token, row}, ctx)},
      iterators);
  rewriter.cloneRegionBefore(contraction.getRegion(), seed.getRegion(),
                             seed.getRegion().begin());
  Value result = tensor::CollapseShapeOp::create(
      rewriter, loc, resultType, seed.getResult(0),
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});

  // The two-level dequantization and its offset, once unused (the scale
  // now feeds the seed's).
  rewriter.replaceOp(contraction, result);
  eraseUnusedDequant(rewriter, dequant);
  return seed;
}

unsigned qforge::rewriteTwoLevelPairsAsSeedBytes(ModuleOp module) {
  return rewriteEveryTwoLevelPair<TwoLevelAsSeedBytesPlan>(
      module, analyzeTwoLevelAsSeedBytes, rewriteTwoLevelAsSeedBytes);
}
