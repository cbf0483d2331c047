//===- Strategies.h - a script per matmul -----------------------*- C++ -*-===//
//
// A kernel file holds one quantized matmul (the seed), or a whole module: a
// decoder layer with seven of them, silu and products between. The driver
// gives every quantized matmul its strategy:
//
//   one matmul in the module: the script runs on the module, as a user's
//     `mlir-opt --transform-interpreter` would run it (the packed strategies
//     may then change the kernel's signature, docs/abi.md);
//   several: each matmul (dequantization, its fill and the contraction) is
//     outlined into a private function `@<f>_qmm<i>`, the script for its
//     shape runs on that function alone, and every other elementwise op of
//     the module is tiled and vectorized by a fixed default (rows of at most
//     64 elements).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_STRATEGIES_H
#define QFORGE_DRIVER_STRATEGIES_H

#include "Driver/Options.h"
#include "Driver/Pipelines.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace qforge {

class Session;

/// The scripts a module was transformed with, for their
/// after-bufferization hooks.
struct StrategyPlan {
  /// Set when one script ran on the whole module.
  std::optional<TransformScript> moduleScript;
  /// Otherwise: each outlined matmul function and its script.
  std::vector<std::pair<std::string, TransformScript>> kernelScripts;
  /// Script paths, for messages ("a.mlir" or "a.mlir, b.mlir").
  std::string describe() const;
};

struct MatmulSite;

/// Whether applyStrategies compiles `sites` (findQuantizedMatmuls of
/// `module`) apart -- each outlined into its own function with its own
/// script -- rather than running one script on the whole module (no
/// matmul, or a single one with nothing around it and a static M).
bool compilesSitesApart(mlir::ModuleOp module,
                        llvm::ArrayRef<MatmulSite> sites);

/// Runs the strategies on `module`, whose entry function is `kernel`.
/// Diagnostics name the payload op a failing step ran on; `error` says what
/// failed overall.
mlir::FailureOr<StrategyPlan> applyStrategies(Session &session,
                                              mlir::ModuleOp module,
                                              mlir::func::FuncOp kernel,
                                              StrategyOptions options,
                                              std::string &error);

/// The fixed lowering for a module transformed by `plan`.
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module,
                                       const StrategyPlan &plan);

} // namespace qforge

#endif // QFORGE_DRIVER_STRATEGIES_H
