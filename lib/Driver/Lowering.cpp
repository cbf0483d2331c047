//===- Lowering.cpp - the script, the fixed lowering, the reference -------===//
//
// docs/lowering.md describes these steps for kernel engineers; keep the two
// in sync.
//
//===----------------------------------------------------------------------===//

#include "Driver/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

/// Runs a textual pass pipeline (passes on the module, comma-separated).
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    return emitError(module.getLoc())
           << "internal error: bad pipeline '" << pipeline << "': " << errors;
  }
  return pm.run(module);
}

FailureOr<qforge::TransformScript>
qforge::TransformScript::load(MLIRContext *context, StringRef path) {
  TransformScript script;
  script.path = path.str();
  script.module = std::make_shared<OwningOpRef<ModuleOp>>();
  if (failed(transform::detail::parseTransformModuleFromFile(context, path,
                                                             *script.module)))
    return failure();
  if (!script.defines(kMainEntry)) {
    emitError((**script.module).getLoc())
        << "the transform script defines no named sequence @" << kMainEntry;
    return failure();
  }
  return script;
}

bool qforge::TransformScript::defines(StringRef entry) const {
  return SymbolTable::lookupSymbolIn(**module, entry) != nullptr;
}

LogicalResult qforge::TransformScript::apply(ModuleOp payload,
                                             StringRef entry) const {
  Operation *sequence = SymbolTable::lookupSymbolIn(**module, entry);
  if (!sequence)
    return emitError((**module).getLoc())
           << "the transform script defines no named sequence @" << entry;
  return transform::applyTransformNamedSequence(
      payload, sequence, **module, transform::TransformOptions());
}

/// Tensors become memrefs with identity layouts; results become out-params
/// (the caller owns every buffer, see docs/abi.md); temporaries are freed.
static constexpr const char *kBufferize =
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions=true "
    "hoist-static-allocs=true},"
    "canonicalize,cse,buffer-deallocation-pipeline,canonicalize";

/// After vector lowering: everything to the LLVM dialect. An scf.forall left
/// by the script runs its iterations on OpenMP threads (libomp; the thread
/// count is the OpenMP runtime's, e.g. OMP_NUM_THREADS); canonicalization
/// then inlines the memref.alloca_scope the conversion wraps each iteration
/// in (a kernel without allocas needs none, and scf-to-cf would give it more
/// than one block). Reductions keep the
/// fastmath flags the script gave them (reassociation only where allowed).
static constexpr const char *kToLLVM =
    "scf-forall-to-parallel,convert-scf-to-openmp,canonicalize,"
    "convert-linalg-to-loops,lower-affine,convert-scf-to-cf,"
    "expand-strided-metadata,lower-affine,finalize-memref-to-llvm,"
    "convert-vector-to-llvm,convert-ub-to-llvm,convert-math-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,"
    "convert-cf-to-llvm,convert-openmp-to-llvm,reconcile-unrealized-casts";

static void addCanonicalizations(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// Vector ops to rank-1 loads, stores and arithmetic, in two rounds: the
/// second round lowers what the first one unrolled (a single round leaves
/// rank-2 transfers behind, which convert-vector-to-scf would turn into
/// element loops through a stack buffer). Permutation maps with broadcast
/// dims become a rank-1 read + vector.broadcast, not element loops.
static LogicalResult lowerVectors(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // An n-D read of contiguous memory becomes one 1-D read (e.g. the
    // vector<16x4xi8> weight bytes of an int8 dot product: one 64-byte load).
    vector::populateFlattenVectorTransferPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    addCanonicalizations(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return emitError(module.getLoc()) << "vector lowering did not converge";
  }
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    addCanonicalizations(patterns);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return emitError(module.getLoc()) << "vector lowering did not converge";
  }
  return success();
}

/// Public functions get a `_mlir_ciface_<name>` wrapper taking pointers to
/// memref descriptors.
static void requestCInterfaces(ModuleOp module) {
  UnitAttr unit = UnitAttr::get(module.getContext());
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      func->setAttr("llvm.emit_c_interface", unit);
}

/// After conversion only ops that translate to LLVM IR may remain: the LLVM
/// dialect's, and the OpenMP dialect's (a strategy's parallel loops, which
/// the OpenMP translation turns into runtime calls). Anything else (e.g. a
/// vector transfer form a script produced that the fixed lowering has no
/// pattern for) is reported where it came from, instead of failing later in
/// translation with an unrealized cast.
static LogicalResult checkFullyLowered(ModuleOp module) {
  auto translates = [](Operation *op) {
    return isa<LLVM::LLVMDialect, omp::OpenMPDialect>(op->getDialect());
  };
  Operation *leftover = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation() || translates(op))
      return WalkResult::advance();
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op)) {
      // Report the op the cast stands in for, when there is one.
      for (Operation *user : cast->getUsers())
        if (!translates(user) && !isa<UnrealizedConversionCastOp>(user)) {
          leftover = user;
          return WalkResult::interrupt();
        }
    }
    leftover = op;
    return WalkResult::interrupt();
  });
  if (!leftover)
    return success();
  return emitError(leftover->getLoc())
         << "the fixed lowering cannot lower '" << leftover->getName()
         << "' (docs/lowering.md lists what it handles); change the script "
            "so that it does not produce this form";
}

LogicalResult qforge::lowerToLLVMDialect(ModuleOp module,
                                         const TransformScript &script) {
  if (failed(runPipeline(module, kBufferize)))
    return failure();
  if (script.defines(TransformScript::kAfterBufferizationEntry) &&
      failed(script.apply(module, TransformScript::kAfterBufferizationEntry)))
    return failure();
  if (failed(lowerVectors(module)))
    return failure();
  requestCInterfaces(module);
  if (failed(runPipeline(module, kToLLVM)))
    return failure();
  return checkFullyLowered(module);
}

LogicalResult qforge::lowerReferenceToLLVMDialect(ModuleOp module) {
  if (failed(runPipeline(module, kBufferize)))
    return failure();
  requestCInterfaces(module);
  if (failed(runPipeline(module, kToLLVM)))
    return failure();
  return checkFullyLowered(module);
}
