//===- JitKernel.cpp - a kernel compiled into this process ----------------===//

#include "Bench/JitKernel.h"
#include "Bench/SiteReplay.h"
#include "Driver/Target.h"

bool qforge::compileJitKernel(mlir::ModuleOp module, llvm::StringRef name,
                              const TargetChoice &target, JitKernel &kernel,
                              std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(target, error, /*forJIT=*/true);
  if (!machine)
    return false;
  if (mlir::failed(legalizeIntrinsics(module, *machine, target))) {
    error = "the kernel needs features the target lacks (see above)";
    return false;
  }
  // ExecutionEngineOptions keeps a function_ref: the transformer must outlive
  // create().
  llvm::TargetMachine *optimizeFor = machine.get();
  auto optimize = [optimizeFor](llvm::Module *module) {
    // The engine wraps every function in a `_mlir_<f>(void **)` that loads
    // its arguments (the bench calls `_mlir__mlir_ciface_<f>`): glue, whose
    // -O3 on a model's thousands of arguments cost more than its kernels.
    for (llvm::Function &function : *module) {
      if (function.isDeclaration() ||
          !function.getName().starts_with("_mlir_") ||
          function.getName().starts_with("_mlir_ciface_"))
        continue;
      function.removeFnAttr(llvm::Attribute::AlwaysInline);
      function.addFnAttr(llvm::Attribute::OptimizeNone);
      function.addFnAttr(llvm::Attribute::NoInline);
    }
    optimizeModule(*module, *optimizeFor);
    return llvm::Error::success();
  };
  // qforge's translation, not the engine's own: it marks the glue
  // optnone and the code around the kernels optsize, as qforge-compile
  // does (a 32-layer model's glue at -O3 took the JIT past 30 s).
  auto translate = [optimizeFor, &target](mlir::Operation *op,
                                          llvm::LLVMContext &context) {
    return translateToLLVMIR(llvm::cast<mlir::ModuleOp>(op), context,
                             *optimizeFor, target);
  };
  mlir::ExecutionEngineOptions options;
  options.llvmModuleBuilder = translate;
  options.transformer = optimize;
  // Kernels whose strategy leaves an scf.forall call into the OpenMP
  // runtime (docs/lowering.md).
  llvm::StringRef runtime[] = {QFORGE_LIBOMP_PATH};
  options.sharedLibPaths = runtime;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine =
      mlir::ExecutionEngine::create(module, options, std::move(machine));
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    return false;
  }
  // The taps and replays of a module verified matmul by matmul
  // (Bench/SiteReplay.h), for modules that call them.
  SiteReplay::registerSymbols(**engine);
  kernel.engine = std::move(*engine);
  kernel.call = kernel.lookup(name, error);
  return kernel.call != nullptr;
}

void (*qforge::JitKernel::lookup(llvm::StringRef name, std::string &error)
          const)(void **) {
  auto function = engine->lookupPacked(("_mlir_ciface_" + name).str());
  if (!function) {
    error = "no C interface for '" + name.str() +
            "': " + llvm::toString(function.takeError());
    return nullptr;
  }
  return *function;
}
