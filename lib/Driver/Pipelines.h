//===- Pipelines.h - qforge's fixed compilation steps -----------*- C++ -*-===//
//
// What happens to a kernel between the input file and LLVM IR:
//   1. the transform script (the strategy), then
//   2. the fixed lowering (docs/lowering.md): bufferization with identity
//      layouts and results as out-params, deallocation, vector lowering to
//      rank-1 transfers that keeps broadcast reads as broadcasts, and
//      conversion to the LLVM dialect;
// or, for the oracle, the reference lowering (linalg to scalar loops).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_PIPELINES_H
#define QFORGE_DRIVER_PIPELINES_H

#include "Driver/Script.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>

namespace mlir {
class DialectRegistry;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace qforge {

/// Everything a qforge tool parses, transforms and translates: upstream
/// dialects and extensions, LLVM IR translations, transform.qforge.*.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// Returns the function `name` (or the only public function when `name` is
/// empty) after checking it is a kernel qforge can compile: ranked, static
/// tensor or scalar arguments and results. Emits a diagnostic otherwise.
mlir::FailureOr<mlir::func::FuncOp> findKernel(mlir::ModuleOp module,
                                               llvm::StringRef name);

/// The arguments of `kernel` that its quantized contractions read as their
/// activation, directly or through reshapes and float conversions; empty
/// when there is no such contraction or one's activation is computed in the
/// kernel (the values an int8 quantization of it rounds are then not the
/// caller's to choose).
llvm::SmallVector<unsigned> findActivationArguments(mlir::func::FuncOp kernel);
/// The fewest weights a group of `kernel`'s dequantizations holds (the
/// product of the weights' dims the scale does not vary along), or 0 when
/// no dequantization has static ranges.
int64_t findSmallestGroupSize(mlir::func::FuncOp kernel);

/// The fixed lowering after a script, down to the LLVM dialect; runs the
/// script's `qforge_after_bufferization` sequence, when it has one, right
/// after bufferization. Public functions get `llvm.emit_c_interface` (see
/// docs/abi.md).
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module,
                                       const TransformScript &script);

/// The same, with `afterBufferization` run on the bufferized module in
/// place of one script's hook.
mlir::LogicalResult lowerToLLVMDialect(
    mlir::ModuleOp module,
    llvm::function_ref<mlir::LogicalResult(mlir::ModuleOp)> afterBufferization);

/// The oracle: the same bufferization and ABI, but every linalg op becomes
/// scalar loops; no script, no vectorization.
mlir::LogicalResult lowerReferenceToLLVMDialect(mlir::ModuleOp module);

} // namespace qforge

#endif // QFORGE_DRIVER_PIPELINES_H
