//===- HoistOperandConversion.cpp - convert an operand once, ahead --------===//

#include "Rewrites/HoistOperandConversion.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {

/// Whether `value` keeps its value across the iterations of `loop`: defined
/// outside it, or by side-effect-free ops without regions inside it whose
/// operands do (collected in `defs`, each after the defs of its operands).
bool isInvariantIn(Value value, Operation *loop,
                   llvm::SetVector<Operation *> &defs) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return !loop->isAncestor(
        cast<BlockArgument>(value).getOwner()->getParentOp());
  if (!loop->isAncestor(def))
    return true;
  if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  for (Value operand : def->getOperands())
    if (!isInvariantIn(operand, loop, defs))
      return false;
  defs.insert(def);
  return true;
}

/// The loop's trip count, or `unknown` when it is not static.
int64_t tripCount(scf::ForOp loop, int64_t unknown) {
  std::optional<APInt> trips = loop.getStaticTripCount();
  return trips ? static_cast<int64_t>(trips->getZExtValue()) : unknown;
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

  // The ops depending on the element alone: every operand is the element, a
  // result of such an op, a constant or a value from above.
  llvm::SmallPtrSet<Operation *, 8> alone;
  auto fromElement = [&](Value v) {
    return v == element || (v.getDefiningOp() && alone.contains(v.getDefiningOp()));
  };
  for (Operation &op : body->without_terminator()) {
    if (isa<linalg::IndexOp>(op) || op.getNumRegions() != 0 ||
        !isMemoryEffectFree(&op) || op.getNumResults() != 1)
      continue;
    bool dependsOnElement = false, onlyElement = true;
    for (Value operand : op.getOperands()) {
      if (fromElement(operand)) {
        dependsOnElement = true;
        continue;
      }
      Operation *def = operand.getDefiningOp();
      bool fromAbove = !generic->isAncestor(
          def ? def : cast<BlockArgument>(operand).getOwner()->getParentOp());
      if (!fromAbove && !(def && def->hasTrait<OpTrait::ConstantLike>()))
        onlyElement = false;
    }
    if (dependsOnElement && onlyElement) {
      alone.insert(&op);
      plan.conversionOps.push_back(&op);
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

  // The loops the input does not change in, innermost first.
  Value value = generic.getDpsInputOperand(input)->get();
  llvm::SetVector<Operation *> defs;
  // Fewer than 2 would convert as often as the generic runs.
  const int64_t needed = std::max<int64_t>(minIterations, 2);
  int64_t iterations = 1; // saturating at `needed`

  for (Operation *parent = generic->getParentOp();
       auto loop = dyn_cast_or_null<scf::ForOp>(parent);
       parent = loop->getParentOp()) {
    llvm::SetVector<Operation *> loopDefs = defs;
    if (!isInvariantIn(value, loop, loopDefs))
      break;
    defs = std::move(loopDefs);
    plan.outermostLoop = loop;
    iterations = std::min(iterations * tripCount(loop, needed), needed);
  }
  if (!plan.outermostLoop || iterations < needed) {
    reason = "the loops that keep the input unchanged run the generic " +
             std::to_string(iterations) +
             " times per conversion, fewer than " + std::to_string(needed);
    return failure();
  }
  // Each def after the defs of its operands: a post-order from the input.
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
  plan.invariantDefs.assign(ordered.begin(), ordered.end());
  return plan;
}

linalg::GenericOp
qforge::hoistOperandConversion(RewriterBase &rewriter,
                               const OperandConversionPlan &plan) {
  linalg::GenericOp generic = plan.generic;
  Location loc = generic.getLoc();
  for (Operation *def : plan.invariantDefs)
    rewriter.moveOpBefore(def, plan.outermostLoop);

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(plan.outermostLoop);
  OpOperand *inputOperand = generic.getDpsInputOperand(plan.input);
  Value input = inputOperand->get();
  auto inputType = cast<RankedTensorType>(input.getType());
  Type convertedType = plan.converted.getType();
  Value init = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, input),
      convertedType);
  unsigned rank = inputType.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext());
  Block *body = generic.getBlock();
  BlockArgument element = body->getArgument(plan.input);
  auto conversion = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{input},
      ValueRange{init}, ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(element, args[0]);
        for (Operation *op : plan.conversionOps) {
          for (Value operand : op->getOperands()) {
            Operation *def = operand.getDefiningOp();
            if (def && generic->isAncestor(def) && !mapping.contains(operand))
              b.clone(*def, mapping); // a constant of the body
          }
          b.clone(*op, mapping);
        }
        linalg::YieldOp::create(b, l, mapping.lookup(plan.converted));
      });

  rewriter.modifyOpInPlace(generic, [&] {
    inputOperand->set(conversion->getResult(0));
    element.setType(convertedType);
  });
  rewriter.replaceAllUsesWith(plan.converted, element);
  llvm::SetVector<Operation *> constants;
  for (Operation *op : llvm::reverse(plan.conversionOps)) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && def->getBlock() == body && def->hasTrait<OpTrait::ConstantLike>())
        constants.insert(def);
    rewriter.eraseOp(op);
  }
  // The body's constants only the conversion used.
  for (Operation *constant : constants)
    if (constant->use_empty())
      rewriter.eraseOp(constant);
  return conversion;
}
