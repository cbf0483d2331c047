//===- JitKernel.h - a kernel compiled into this process --------*- C++ -*-===//
#ifndef QFORGE_BENCH_JITKERNEL_H
#define QFORGE_BENCH_JITKERNEL_H

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>

namespace qforge {

struct TargetChoice;

/// A JIT-compiled kernel: `call(packed)` runs `_mlir_ciface_<name>` with the
/// packed arguments of a KernelCall.
struct JitKernel {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*call)(void **) = nullptr;

  /// The C interface of another public function of the same module (e.g.
  /// `<f>_pack_weights`); null, with `error` set, when there is none.
  void (*lookup(llvm::StringRef name, std::string &error) const)(void **);
};

/// Lowers `module` (already in the LLVM dialect) for the host CPU at -O3 with
/// FMA contraction, and looks up the C interface of `name`.
bool compileJitKernel(mlir::ModuleOp module, llvm::StringRef name,
                      const TargetChoice &target, JitKernel &kernel,
                      std::string &error);

} // namespace qforge

#endif // QFORGE_BENCH_JITKERNEL_H
