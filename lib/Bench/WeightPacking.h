//===- WeightPacking.h - run <f>_pack_weights once before <f> ---*- C++ -*-===//
//
// A strategy that splits the parameter packing off its kernel
// (transform.qforge.split_parameter_packing, docs/abi.md) leaves `<f>` taking
// packed weights, scales and zero-points, and `<f>_pack_weights` producing
// them from the raw ones. The benchmark fills the raw inputs, packs them once
// (not timed) and times only `<f>` on the packed inputs.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_BENCH_WEIGHTPACKING_H
#define QFORGE_BENCH_WEIGHTPACKING_H

#include "Bench/KernelBuffers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <string>
#include <vector>

namespace qforge {

/// The one-time packing step of a split kernel.
struct WeightPacking {
  std::string functionName;           ///< `<f>_pack_weights`
  mlir::FunctionType type;            ///< raw parameters -> packed
  std::vector<int64_t> rawPositions;  ///< its inputs: raw positions
  std::vector<int64_t> kernelIndices; ///< per result: `<f>`'s argument
};

/// Reads the attributes split_parameter_packing leaves on `kernel` (in the
/// module after the script). std::nullopt when `kernel` was not split;
/// failure, with `error` set, when the attributes do not describe a packing
/// function of its module whose arguments and results match `kernel`'s and
/// `rawType`'s (the kernel's signature before the script): packed arguments
/// at the listed positions, further results after the raw arguments
/// (qforge::getPackedSignature), every other argument and the results
/// unchanged.
mlir::FailureOr<std::optional<WeightPacking>>
findWeightPacking(mlir::func::FuncOp kernel, mlir::FunctionType rawType,
                  std::string &error);

/// Builds `kernelCall`'s inputs from `rawCall`'s: runs `pack` (the compiled
/// `<f>_pack_weights`) once on the raw parameters and copies its results to
/// their arguments of `<f>`; the other inputs are copied as they are.
void packInputs(void (*pack)(void **), const WeightPacking &packing,
                const KernelCall &rawCall, KernelCall &kernelCall);

} // namespace qforge

#endif // QFORGE_BENCH_WEIGHTPACKING_H
