//===- Strategies.cpp - which script runs on which quantized matmul -------===//

#include "Driver/Strategies.h"
#include "Driver/Session.h"

#include "Abi/AbiAttributes.h"
#include "Analysis/Divisors.h"
#include "Analysis/ProducerForms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

std::string qforge::StrategyPlan::describe() const {
  if (moduleScript)
    return moduleScript->getPath().str();
  llvm::SetVector<StringRef> paths;
  for (const auto &[name, script] : kernelScripts)
    paths.insert(script.getPath());
  return llvm::join(paths, ", ");
}

namespace {

/// A quantized matmul of the module: its contraction and where it lives.
struct MatmulSite {
  linalg::GenericOp contraction;
  int64_t tokens;
};

SmallVector<MatmulSite> findQuantizedMatmuls(ModuleOp module) {
  SmallVector<MatmulSite> sites;
  module.walk([&](linalg::GenericOp op) {
    if (std::optional<int64_t> tokens = qforge::countTokens(op))
      sites.push_back({op, *tokens});
  });
  return sites;
}

/// Moves the contraction, its dequantization and the fills and empties
/// only they use into a private function `name` placed after the parent;
/// the contraction's result becomes the call's. Constants are cloned in,
/// every other value the ops read becomes an argument.
func::FuncOp outline(linalg::GenericOp contraction, StringRef name) {
  Block *block = contraction->getBlock();
  llvm::SetVector<Operation *> moved;
  moved.insert(contraction);
  SmallVector<Operation *> worklist = {contraction};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != block || moved.contains(def) ||
          !isa<linalg::GenericOp, linalg::FillOp, tensor::EmptyOp>(def))
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
  return function;
}

/// Runs `entry` of `script` on `function` alone: in a module of its own,
/// so that the script's matches see only this matmul. Functions the script
/// adds come back with it.
LogicalResult applyToFunction(const qforge::TransformScript &script,
                              func::FuncOp function, StringRef entry) {
  Operation *next = function->getNextNode();
  Block *parentBlock = function->getBlock();
  OwningOpRef<ModuleOp> scope = ModuleOp::create(function.getLoc());
  function->moveBefore(scope->getBody(), scope->getBody()->end());
  LogicalResult result = script.apply(*scope, entry);
  for (Operation &op : llvm::make_early_inc_range(*scope->getBody())) {
    if (next)
      op.moveBefore(next);
    else
      op.moveBefore(parentBlock, parentBlock->end());
  }
  return result;
}

/// The default for what is not a quantized matmul: every static,
/// all-parallel linalg op (silu, products, fills, bias adds) is tiled to
/// rows of at most 64 elements along its innermost dim (a divisor, so no
/// partial tile) and vectorized, instead of becoming scalar loops.
void vectorizeElementwiseOps(func::FuncOp function) {
  SmallVector<linalg::LinalgOp> ops;
  function.walk([&](linalg::LinalgOp op) {
    if (op.getNumLoops() > 0 && op.getNumParallelLoops() == op.getNumLoops() &&
        op.hasPureTensorSemantics() &&
        !llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
      ops.push_back(op);
  });
  IRRewriter rewriter(function.getContext());
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> sizes = op.getStaticLoopRanges();
    SmallVector<int64_t> tiles(sizes.size(), 1);
    tiles.back() = qforge::largestDivisorAtMost(sizes.back(), 64);
    Operation *toVectorize = op;
    if (sizes != tiles) {
      scf::SCFTilingOptions options;
      options.setTileSizes(
          getAsIndexOpFoldResult(function.getContext(), tiles));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      toVectorize = tiled->tiledOps.front();
    }
    rewriter.setInsertionPoint(toVectorize);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, toVectorize);
    if (succeeded(vectorized)) {
      if (toVectorize->getNumResults())
        rewriter.replaceOp(toVectorize, vectorized->replacements);
      else
        rewriter.eraseOp(toVectorize);
    }
  }
}

} // namespace

FailureOr<qforge::StrategyPlan>
qforge::applyStrategies(Session &session, ModuleOp module, func::FuncOp kernel,
                        StrategyOptions options, std::string &error) {
  SmallVector<MatmulSite> sites = findQuantizedMatmuls(module);
  options.int4Weights = kernel->hasAttr(kInt4BytePairsAttrName);
  StrategyPlan plan;

  // One matmul (or none the driver recognises): the script sees the module.
  if (sites.size() <= 1) {
    if (sites.size() == 1)
      options.tokens = sites.front().tokens;
    if (options.tokens == ShapedType::kDynamic) {
      error = "the quantized matmul has a dynamic token count; qforge "
              "compiles static shapes only";
      return failure();
    }
    FailureOr<TransformScript> script = session.loadStrategy(options, error);
    if (failed(script))
      return failure();
    if (failed(script->apply(module))) {
      error = "the transform script '" + script->getPath().str() +
              "' failed (see above)";
      return failure();
    }
    plan.moduleScript = *script;
    return plan;
  }

  // Several: each its own function and script. The strategies that pack the
  // weights change the kernel's signature, which an outlined matmul cannot.
  for (MatmulSite site : sites) {
    auto parent = site.contraction->getParentOfType<func::FuncOp>();
    std::string why;
    if (options.packedWeights)
      why = "--packed-weights";
    else if (parent->hasAttr(kInt4BytePairsAttrName))
      why = "4-bit weights (packed strategies only)";
    else if (site.tokens != 1)
      why = "M = " +
            (ShapedType::isDynamic(site.tokens) ? std::string("?")
                                                : std::to_string(site.tokens)) +
            " activation rows (the prefill strategies pack the weights)";
    if (!why.empty()) {
      site.contraction.emitError()
          << "this quantized matmul is one of " << sites.size()
          << " in the module; with " << why
          << " only a module with one quantized matmul is supported yet "
             "(split the module, docs/forms.md)";
      error = "no strategy for a module with several quantized matmuls";
      return failure();
    }
  }
  FailureOr<TransformScript> script = session.loadStrategy(options, error);
  if (failed(script))
    return failure();
  llvm::StringMap<unsigned> countByParent;
  for (MatmulSite site : sites) {
    auto parent = site.contraction->getParentOfType<func::FuncOp>();
    unsigned index = countByParent[parent.getSymName()]++;
    Location loc = site.contraction.getLoc();
    std::string name = (parent.getSymName() + "_qmm" + Twine(index)).str();
    func::FuncOp function = outline(site.contraction, name);
    if (failed(
            applyToFunction(*script, function, TransformScript::kMainEntry))) {
      emitError(loc) << "the strategy '" << script->getPath()
                     << "' failed on this quantized matmul (outlined as @"
                     << name << ")";
      error = "the transform script '" + script->getPath().str() +
              "' failed (see above)";
      return failure();
    }
    plan.kernelScripts.emplace_back(name, *script);
  }
  for (auto function : module.getOps<func::FuncOp>())
    if (!llvm::any_of(plan.kernelScripts, [&](const auto &entry) {
          return entry.first == function.getSymName();
        }))
      vectorizeElementwiseOps(function);
  return plan;
}

LogicalResult qforge::lowerToLLVMDialect(ModuleOp module,
                                         const StrategyPlan &plan) {
  if (plan.moduleScript)
    return lowerToLLVMDialect(module, *plan.moduleScript);
  return lowerToLLVMDialect(module, [&](ModuleOp bufferized) {
    for (const auto &[name, script] : plan.kernelScripts) {
      if (!script.defines(TransformScript::kAfterBufferizationEntry))
        continue;
      auto function = bufferized.lookupSymbol<func::FuncOp>(name);
      if (!function ||
          failed(applyToFunction(script, function,
                                 TransformScript::kAfterBufferizationEntry)))
        return failure();
    }
    return success();
  });
}
