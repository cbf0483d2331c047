//===- HoistOperandConversion.cpp - convert an operand once, ahead --------===//

#include "Rewrites/HoistOperandConversion.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace {

/// Whether `value` keeps its value across the iterations of `loop`: defined
/// outside it, or by pure ops without regions inside it whose operands do
/// (collected in `defs`, each after the defs of its operands).
bool isInvariantIn(Value value, Operation *loop,
                   llvm::SetVector<Operation *> &defs) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return !loop->isAncestor(
        cast<BlockArgument>(value).getOwner()->getParentOp());
  if (!loop->isAncestor(def))
    return true;
  // Moved before the loop, it runs even when the loop would not (a count
  // that is not static may be zero): only speculatable ops move.
  if (def->getNumRegions() != 0 || !isPure(def))
    return false;
  for (Value operand : def->getOperands())
    if (!isInvariantIn(operand, loop, defs))
      return false;
  defs.insert(def);
  return true;
}

/// The loop's trip count, capped at `cap`; `cap` when it is not static.
uint64_t tripCount(scf::ForOp loop, uint64_t cap) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->uge(cap))
    return cap;
  return trips->getZExtValue();
}

/// Whether `op` may be copied into the conversion's body, which runs before
/// the loops even when they would not: no side effects, speculatable (no
/// division by a value that may be zero), no regions, one result.
bool isCopyable(Operation &op) {
  return op.getNumRegions() == 0 && isPure(&op) && op.getNumResults() == 1;
}

} // namespace

FailureOr<qforge::OperandConversionPlan>
qforge::analyzeOperandConversion(linalg::GenericOp generic, unsigned input,
                                 int64_t minIterations, std::string &reason) {
  if (!generic.hasPureTensorSemantics()) {
    reason = "the generic does not have tensor semantics";
    return failure();
  }
  if (input >= generic.getNumDpsInputs()) {
    reason = "input " + std::to_string(input) + " does not exist (" +
             std::to_string(generic.getNumDpsInputs()) + " inputs)";
    return failure();
  }
  OperandConversionPlan plan;
  plan.generic = generic;
  plan.input = input;
  Block *body = generic.getBlock();
  BlockArgument element = body->getArgument(input);
  OpOperand *inputOperand = generic.getDpsInputOperand(input);
  AffineMap inputMap = generic.getMatchingIndexingMap(inputOperand);
  if (!inputMap.isProjectedPermutation()) {
    reason = "the input's indexing map is not a projected permutation";
    return failure();
  }

  // Each body op is one of: "free" -- computed from constants, loop indices
  // (linalg.index) and values from above only; "alone" -- depending on the
  // element and on free values only (the conversion); or neither.
  llvm::SmallPtrSet<Operation *, 16> free, alone;
  auto isFromAbove = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !generic->isAncestor(
        def ? def : cast<BlockArgument>(v).getOwner()->getParentOp());
  };
  for (Operation &op : body->without_terminator()) {
    if (!isCopyable(op))
      continue;
    bool dependsOnElement = false, other = false;
    for (Value operand : op.getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (operand == element || (def && alone.contains(def)))
        dependsOnElement = true;
      else if (!isFromAbove(operand) && !(def && free.contains(def)))
        other = true;
    }
    if (other)
      continue;
    if (dependsOnElement) {
      alone.insert(&op);
      plan.conversionOps.push_back(&op);
    } else {
      free.insert(&op);
    }
  }
  for (Operation *user : element.getUsers())
    if (!alone.contains(user)) {
      reason = "the body uses the input's element unconverted";
      return failure();
    }
  for (Operation *op : plan.conversionOps)
    for (Operation *user : op->getResult(0).getUsers())
      if (!alone.contains(user)) {
        if (plan.converted && plan.converted != op->getResult(0)) {
          reason = "the input's conversion has more than one result the "
                   "body uses";
          return failure();
        }
        plan.converted = op->getResult(0);
      }
  if (!plan.converted) {
    reason = "no part of the body converts the input by itself";
    return failure();
  }
  if (!plan.converted.getType().isIntOrIndexOrFloat()) {
    reason = "the converted element is not a scalar";
    return failure();
  }

  // The free ops the conversion reads (transitively), in body order, the
  // loop dims their linalg.index ops name, and the values from above the
  // conversion captures.
  llvm::SetVector<Operation *> freeUsed;
  llvm::SetVector<Value> captured;
  std::function<void(Value)> collect = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (isFromAbove(v)) {
      captured.insert(v);
      return;
    }
    if (!def || !free.contains(def) || freeUsed.contains(def))
      return;
    for (Value operand : def->getOperands())
      collect(operand);
    freeUsed.insert(def);
  };
  for (Operation *op : plan.conversionOps)
    for (Value operand : op->getOperands())
      collect(operand);
  plan.freeOps.assign(freeUsed.begin(), freeUsed.end());
  llvm::sort(plan.freeOps,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // The converted tensor's dims: the loop dims of the input's map and of
  // the conversion's indices, in loop order (the lanes stay innermost).
  llvm::SmallSetVector<unsigned, 8> dims;
  for (AffineExpr result : inputMap.getResults())
    dims.insert(cast<AffineDimExpr>(result).getPosition());
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  for (Operation *op : plan.freeOps)
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      // A dim the input does not have takes its size from the loop range.
      if (!dims.contains(index.getDim()) &&
          ShapedType::isDynamic(ranges[index.getDim()])) {
        reason = "the conversion reads the index of a dynamic loop dim the "
                 "input does not have";
        return failure();
      }
      dims.insert(index.getDim());
    }
  plan.dims.assign(dims.begin(), dims.end());
  llvm::sort(plan.dims);

  // The loops neither the input nor a captured value changes in, innermost
  // first.
  Value value = inputOperand->get();
  llvm::SetVector<Operation *> defs;
  // Fewer than 2 would convert as often as the generic runs.
  const uint64_t needed = std::max<int64_t>(minIterations, 2);
  uint64_t iterations = 1; // saturating at `needed`
  for (Operation *parent = generic->getParentOp();
       auto loop = dyn_cast_or_null<scf::ForOp>(parent);
       parent = loop->getParentOp()) {
    llvm::SetVector<Operation *> loopDefs = defs;
    bool invariant = isInvariantIn(value, loop, loopDefs);
    for (Value v : captured)
      invariant = invariant && isInvariantIn(v, loop, loopDefs);
    if (!invariant)
      break;
    defs = std::move(loopDefs);
    plan.outermostLoop = loop;
    iterations = std::min(
        llvm::SaturatingMultiply(iterations, tripCount(loop, needed)), needed);
  }
  if (!plan.outermostLoop || iterations < needed) {
    reason = "the loops that keep the input unchanged run the generic " +
             std::to_string(iterations) + " times per conversion, fewer than " +
             std::to_string(needed);
    return failure();
  }
  // Each def after the defs of its operands: a post-order from the input
  // and the captured values.
  llvm::SetVector<Operation *> ordered;
  std::function<void(Value)> visit = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !defs.contains(def) || ordered.contains(def))
      return;
    for (Value operand : def->getOperands())
      visit(operand);
    ordered.insert(def);
  };
  visit(value);
  for (Value v : captured)
    visit(v);
  plan.invariantDefs.assign(ordered.begin(), ordered.end());
  return plan;
}

linalg::GenericOp
qforge::hoistOperandConversion(RewriterBase &rewriter,
                               const OperandConversionPlan &plan) {
  linalg::GenericOp generic = plan.generic;
  Location loc = generic.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  for (Operation *def : plan.invariantDefs)
    rewriter.moveOpBefore(def, plan.outermostLoop);

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(plan.outermostLoop);
  OpOperand *inputOperand = generic.getDpsInputOperand(plan.input);
  Value input = inputOperand->get();
  AffineMap inputMap = generic.getMatchingIndexingMap(inputOperand);
  unsigned rank = plan.dims.size();
  auto position = [&](unsigned loopDim) -> unsigned {
    return llvm::find(plan.dims, loopDim) - plan.dims.begin();
  };

  // The converted tensor's sizes: the input's along its dims, the loop
  // ranges (static) along the indices' others.
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<OpFoldResult> inputSizes =
      tensor::getMixedSizes(rewriter, loc, input);
  SmallVector<OpFoldResult> sizes;
  for (unsigned loopDim : plan.dims) {
    std::optional<unsigned> inputDim =
        inputMap.getResultPosition(getAffineDimExpr(loopDim, ctx));
    sizes.push_back(inputDim ? inputSizes[*inputDim]
                             : rewriter.getIndexAttr(ranges[loopDim]));
  }
  SmallVector<AffineExpr> readExprs, convertedExprs;
  for (AffineExpr result : inputMap.getResults())
    readExprs.push_back(getAffineDimExpr(
        position(cast<AffineDimExpr>(result).getPosition()), ctx));
  for (unsigned loopDim : plan.dims)
    convertedExprs.push_back(getAffineDimExpr(loopDim, ctx));

  Value init =
      tensor::EmptyOp::create(rewriter, loc, sizes, plan.converted.getType());
  Block *body = generic.getBlock();
  BlockArgument element = body->getArgument(plan.input);
  auto conversion = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{input},
      ValueRange{init},
      ArrayRef<AffineMap>{AffineMap::get(rank, 0, readExprs, ctx),
                          AffineMap::getMultiDimIdentityMap(rank, ctx)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(element, args[0]);
        for (Operation *op : plan.freeOps) {
          if (auto index = dyn_cast<linalg::IndexOp>(op)) {
            mapping.map(index.getResult(),
                        linalg::IndexOp::create(b, l, position(index.getDim()))
                            .getResult());
            continue;
          }
          b.clone(*op, mapping);
        }
        for (Operation *op : plan.conversionOps)
          b.clone(*op, mapping);
        linalg::YieldOp::create(b, l, mapping.lookup(plan.converted));
      });

  rewriter.modifyOpInPlace(generic, [&] {
    inputOperand->set(conversion->getResult(0));
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    maps[inputOperand->getOperandNumber()] =
        AffineMap::get(generic.getNumLoops(), 0, convertedExprs, ctx);
    generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    element.setType(plan.converted.getType());
  });
  rewriter.replaceAllUsesWith(plan.converted, element);
  for (Operation *op : llvm::reverse(plan.conversionOps))
    rewriter.eraseOp(op);
  // The free ops only the conversion used.
  for (Operation *op : llvm::reverse(plan.freeOps))
    if (op->use_empty())
      rewriter.eraseOp(op);
  return conversion;
}
