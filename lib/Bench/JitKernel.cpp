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
    optimizeModule(*module, *optimizeFor);
    return llvm::Error::success();
  };
  mlir::ExecutionEngineOptions options;
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
