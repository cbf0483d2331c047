//===- OutlineQuantizedMatmuls.cpp - each quantized matmul its function ---===//
//
// The driver gives each quantized matmul of a whole module its own strategy:
// the matmul (dequantization, fill, contraction) is outlined into a private
// function the script then runs on alone (docs/scripts.md, "Whole
// modules"). The pass qforge-outline-quantized-matmuls does it for every
// quantized matmul (test/Driver/outline-quantized-matmuls.mlir).
//
//===----------------------------------------------------------------------===//

#include "Driver/SelectStrategy.h"
#include "Driver/Surgery.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace {

/// Whether `op` reshapes, slices or transposes a function argument, or
/// decodes parameters from arguments elementwise, directly or through other
/// such ops: how a normalized form reads N x G or G x N parameters as
/// N x G x 1, and how a block format's fields are read in place (a slice of
/// the blocks; a scale joined from two of their bytes, docs/gguf.md).
bool isArgumentView(Operation *op);

/// Whether `value` holds integers (a block's bytes, quants).
bool isInteger(Value value) {
  return isa<IntegerType>(getElementTypeOrSelf(value.getType()));
}

/// Whether `generic` reads integers: a dequantization or a decoding.
bool readsIntegers(linalg::GenericOp generic) {
  return llvm::any_of(generic.getDpsInputs(), isInteger);
}

/// Whether every use of `value` is, through reshapes, an input of a
/// dequantization (a generic reading integers) or of a generic whose
/// result only such uses take (q4_0's block scale d, read by the
/// half-blocks' scale d and offset 8d): a decoded scale, not a converted
/// activation.
bool feedsDequantizationsOnly(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user))
      return feedsDequantizationsOnly(user->getResult(0));
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic)
      return false;
    if (readsIntegers(generic))
      return true;
    return generic->getNumResults() == 1 &&
           generic.getNumLoops() == generic.getNumParallelLoops() &&
           feedsDequantizationsOnly(generic->getResult(0));
  });
}

bool isArgumentView(Operation *op) {
  auto readsArguments = [](Value source) {
    return isa<BlockArgument>(source) || isArgumentView(source.getDefiningOp());
  };
  // A decoding reads integers (the bytes of a block), and may read what
  // another decoding made of them or a float argument beside them (a
  // K-quant's sub-block scale d * sc reads the super-block's f16 d, joined
  // from two bytes or passed apart): a float argument's conversion alone
  // (an f16 activation's) stays with the parent.
  auto decoded = [](Value input) {
    auto producer = input.getDefiningOp<linalg::GenericOp>();
    return producer && isArgumentView(producer);
  };
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(op)) {
    bool readsBytes = readsIntegers(generic);
    return generic->getNumResults() == 1 &&
           generic.getNumLoops() == generic.getNumParallelLoops() &&
           feedsDequantizationsOnly(generic->getResult(0)) &&
           llvm::all_of(generic.getDpsInputs(), [&](Value input) {
             return (isInteger(input) || decoded(input) ||
                     (readsBytes && isa<BlockArgument>(input))) &&
                    readsArguments(input);
           });
  }
  if (!isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                       tensor::ExtractSliceOp, linalg::TransposeOp>(op))
    return false;
  return readsArguments(op->getOperand(0));
}

/// Whether `op` computes an input of `contraction` from integers: its
/// dequantization (the other generics around a matmul -- an f16
/// activation's conversion, a bias -- stay with the parent, to be
/// vectorized there).
bool isDequantizationOf(Operation *op, linalg::GenericOp contraction) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic->getNumResults() != 1 ||
      !llvm::is_contained(contraction.getDpsInputs(), generic->getResult(0)))
    return false;
  return readsIntegers(generic);
}

/// Whether `op` is a transpose producing `contraction`'s activation, or a
/// reshape only such a transpose reads: q4_0's form reads x through a
/// transpose of each block's halves (x[g, h, j] -> [g, j, h], docs/gguf.md).
/// They move with the matmul even when x is computed (a layer's silu * up),
/// so that the outlined function takes x as the kernel of the matmul alone
/// does, and its strategy transposes one block at a time; left in the
/// parent, the transpose of a computed x was vectorized whole there and
/// did not lower.
bool isActivationTranspose(Operation *op, linalg::GenericOp contraction) {
  // An input of the contraction (the weights' is a dequantization's
  // result, never a transpose's) swapping its two innermost dims only.
  auto transposesActivation = [&](Operation *user) {
    auto transpose = dyn_cast<linalg::TransposeOp>(user);
    if (!transpose || !llvm::is_contained(contraction.getDpsInputs(),
                                          transpose->getResult(0)))
      return false;
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    int64_t rank = permutation.size();
    for (int64_t dim = 0; dim < rank; ++dim)
      if (permutation[dim] != (dim < rank - 2    ? dim
                               : dim == rank - 2 ? rank - 1
                                                 : rank - 2))
        return false;
    return rank >= 2;
  };
  if (isa_and_nonnull<linalg::TransposeOp>(op))
    return transposesActivation(op);
  if (isa_and_nonnull<tensor::ExpandShapeOp>(op))
    return !op->use_empty() &&
           llvm::all_of(op->getUsers(), transposesActivation);
  return false;
}

} // namespace

qforge::Outlined qforge::outlineQuantizedMatmul(linalg::GenericOp contraction,
                                                StringRef name) {
  Block *block = contraction->getBlock();
  llvm::SetVector<Operation *> moved;
  moved.insert(contraction);
  SmallVector<Operation *> worklist = {contraction};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      // Reshapes (and a G x N parameter's transpose) move only when they
      // read an argument (the parameters a packed strategy packs): a
      // reshape of a computed activation stays, and with it what computes
      // it (e.g. silu * up).
      bool argumentReshape = isArgumentView(def);
      if (!def || def->getBlock() != block || moved.contains(def) ||
          !(isa<linalg::FillOp, tensor::EmptyOp, tensor::DimOp>(def) ||
            argumentReshape || isDequantizationOf(def, contraction) ||
            isActivationTranspose(def, contraction)))
        continue;
      bool onlyUsedByMoved =
          llvm::all_of(def->getUsers(),
                       [&](Operation *user) { return moved.contains(user); });
      if (!onlyUsedByMoved)
        continue;
      moved.insert(def);
      worklist.push_back(def);
    }
  }
  SmallVector<Operation *> ordered(moved.begin(), moved.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  // What the moved ops read from outside -- their operands and the values
  // their bodies capture: constants, or arguments.
  llvm::SetVector<Value> external;
  for (Operation *op : ordered) {
    external.insert(op->operand_begin(), op->operand_end());
    getUsedValuesDefinedAbove(op->getRegions(), external);
  }
  external.remove_if([&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && moved.contains(def);
  });
  SmallVector<Value> arguments;
  SmallVector<Type> argumentTypes;
  for (Value value : external)
    if (!value.getDefiningOp<arith::ConstantOp>()) {
      arguments.push_back(value);
      argumentTypes.push_back(value.getType());
    }

  auto parent = contraction->getParentOfType<func::FuncOp>();
  OpBuilder builder(parent);
  builder.setInsertionPointAfter(parent);
  auto function = func::FuncOp::create(
      builder, contraction.getLoc(), name,
      builder.getFunctionType(argumentTypes, contraction->getResultTypes()));
  function.setPrivate();
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  for (Value value : external)
    if (auto constant = value.getDefiningOp<arith::ConstantOp>())
      mapping.map(value, builder.clone(*constant)->getResult(0));
  for (Operation *op : ordered)
    builder.clone(*op, mapping);
  func::ReturnOp::create(builder, contraction.getLoc(),
                         mapping.lookup(contraction.getResult(0)));

  builder.setInsertionPoint(contraction);
  auto call =
      func::CallOp::create(builder, contraction.getLoc(), function, arguments);
  contraction.getResult(0).replaceAllUsesWith(call.getResult(0));
  for (Operation *op : llvm::reverse(ordered))
    op->erase();
  return {function, call};
}

namespace {
struct OutlineQuantizedMatmulsPass
    : public PassWrapper<OutlineQuantizedMatmulsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OutlineQuantizedMatmulsPass)
  StringRef getArgument() const final {
    return "qforge-outline-quantized-matmuls";
  }
  StringRef getDescription() const final {
    return "Moves each quantized matmul (dequantization, fill, contraction) "
           "into a private function @<f>_qmm<i> and calls it";
  }
  void runOnOperation() override {
    llvm::StringMap<unsigned> countByParent;
    for (const qforge::MatmulSite &site :
         qforge::findQuantizedMatmuls(getOperation())) {
      auto parent = site.contraction->getParentOfType<func::FuncOp>();
      if (!parent)
        continue;
      unsigned index = countByParent[parent.getSymName()]++;
      qforge::outlineQuantizedMatmul(
          site.contraction,
          (parent.getSymName() + "_qmm" + Twine(index)).str());
    }
  }
};
} // namespace

std::unique_ptr<Pass> qforge::createOutlineQuantizedMatmulsPass() {
  return std::make_unique<OutlineQuantizedMatmulsPass>();
}
