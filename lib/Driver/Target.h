//===- Target.h - LLVM's CPU backend for qforge kernels ---------*- C++ -*-===//
#ifndef QFORGE_DRIVER_TARGET_H
#define QFORGE_DRIVER_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace qforge {

struct TargetChoice {
  std::string cpu = "native"; ///< "native": the host CPU and its features
  std::string attrs;          ///< extra features, "+avx512f,-avx512vnni"
};

/// A TargetMachine for the host triple, the chosen CPU and features, -O3,
/// PIC, and fused multiply-add allowed (FPOpFusion::Fast: fmul + fadd may be
/// one rounding). `forJIT` configures it for in-process execution and then
/// refuses a target that uses features the host lacks. Returns null and sets
/// `error` for an unknown CPU or --mattr feature.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const TargetChoice &choice, std::string &error,
                    bool forJIT = false);

/// "CPU 'cpu'", plus " with --mattr=..." when `choice` has extra features:
/// how the diagnostics name a target (`cpu`: the resolved CPU name).
std::string describeTarget(const TargetChoice &choice, llvm::StringRef cpu);

/// Rewrites the x86 intrinsics of the LLVM-dialect `module` that `machine`
/// (made from `choice`) lacks into ones it has, where that is exact
/// (vpdpbusd without VNNI: Rewrites/ExpandByteDotProducts.h; the nibble
/// tables' vpermps without AVX-512F: Patterns/NibbleTables.h); fails, with a
/// diagnostic at the call, when one is left that the target lacks --
/// LLVM's instruction selection would abort on it.
mlir::LogicalResult legalizeIntrinsics(mlir::ModuleOp module,
                                       const llvm::TargetMachine &machine,
                                       const TargetChoice &choice);

/// A function (func.func, kept on its llvm.func) that LLVM optimizes for
/// size (optsize): code around the kernels that qforge vectorized itself or
/// that runs once (applyStrategies).
inline constexpr llvm::StringLiteral kOptimizeForSizeAttr =
    "qforge.optimize_for_size";

/// A function (func.func, kept on its llvm.func) that LLVM leaves
/// unoptimized (optnone, noinline), with its C-interface wrapper: glue
/// without loops that runs once per call of the kernel -- the chain of
/// layer calls of a model, whose thousands of descriptor arguments made
/// LLVM's interprocedural passes and register allocation the whole cost
/// of its compile (applyStrategies).
inline constexpr llvm::StringLiteral kNotOptimizedAttr = "qforge.not_optimized";

/// Translates an LLVM-dialect module to LLVM IR for `machine` and runs
/// LLVM's -O3 pipeline on it (null, with a diagnostic, when
/// legalizeIntrinsics fails).
std::unique_ptr<llvm::Module> translateAndOptimize(mlir::ModuleOp module,
                                                   llvm::LLVMContext &context,
                                                   llvm::TargetMachine &machine,
                                                   const TargetChoice &choice);

/// translateAndOptimize without the optimization: the LLVM IR with its
/// function attributes (target, optsize, optnone), for a caller that
/// optimizes it in parts (emitObjectInParallel).
std::unique_ptr<llvm::Module> translateToLLVMIR(mlir::ModuleOp module,
                                                llvm::LLVMContext &context,
                                                llvm::TargetMachine &machine,
                                                const TargetChoice &choice);

/// LLVM's -O3 pipeline for `machine` (what translateAndOptimize runs; the
/// bench's JIT runs it too): mlir::makeOptimizingTransformer's, with the
/// standard instrumentations (an `optnone` function is skipped) and without
/// CalledValuePropagation.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine);

/// Writes `module` as an object file or assembly.
bool emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                     bool assembly, llvm::raw_pwrite_stream &out,
                     std::string &error);

} // namespace qforge

#endif // QFORGE_DRIVER_TARGET_H
