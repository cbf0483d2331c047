//===- Session.h - what every qforge tool sets up ---------------*- C++ -*-===//
//
// The MLIR context with qforge's dialects, diagnostics printed with source
// lines, the input kernel module, and the strategy script.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_SESSION_H
#define QFORGE_DRIVER_SESSION_H

#include "Driver/Options.h"
#include "Driver/Pipelines.h"
#include "Driver/Target.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace qforge {

/// The shipped decode strategy (a file in transforms/; $QFORGE_TRANSFORMS_DIR
/// overrides the folder) for a target:
///   f32 path:  AVX-512F -> decode-factored-avx512.mlir (AMD Zen, rows of
///              at most 48 groups: decode-factored-avx512-zen.mlir),
///              AVX2 + FMA -> decode-factored-avx2.mlir;
///   int8 path (opt-in, changes numerics): AVX512-VNNI + AVX512BW ->
///              decode-int8-vnni.mlir;
///   packed weights (opt-in, changes the kernel's arguments, docs/abi.md):
///              AVX-512F -> decode-packed-avx512.mlir, AVX2 + FMA ->
///              decode-packed-avx2.mlir; with int8
///              activations, AVX512-VNNI + AVX512BW ->
///              decode-packed-int8-vnni.mlir;
///   int4 weights: decode-packed-int4-avx512.mlir (AVX2 + FMA:
///              decode-packed-int4-avx2.mlir), with int8 activations
///              decode-packed-int4-vnni.mlir (AVX-VNNI CPUs without
///              AVX512-VNNI: decode-int8-avxvnni.mlir for 8-bit weights);
///   M > 1 activation rows (options.tokens): prefill-packed-avx512.mlir
///              (AVX2 + FMA: prefill-packed-avx2.mlir, with int4 weights
///              prefill-packed-int4-avx2.mlir),
///              prefill-packed-int8-vnni.mlir (M > 8),
///              prefill-packed-int4-avx512.mlir, prefill-packed-int4-vnni.mlir;
///              on Intel AVX-512 cores, with f32 activations,
///              prefill-packed-avx512-intel.mlir and
///              prefill-packed-int4-avx512-intel.mlir (static M >= 6), else
///              (static M < 6 or a dynamic M)
///              prefill-packed-avx512-intel-64-rows.mlir and
///              prefill-packed-int4-avx512-intel-64-rows.mlir.
/// Empty, with `error` set, when none fits.
std::string chooseStrategy(const StrategyOptions &options, std::string &error);

class Session {
public:
  Session();
  mlir::MLIRContext &getContext() { return *context; }

  /// Parses a .mlir or .mlirbc file; on failure the diagnostics were printed
  /// (or `error` says why the file could not be read) and the result is null.
  mlir::OwningOpRef<mlir::ModuleOp> parseInput(llvm::StringRef path,
                                               std::string &error);

  /// Loads `options.script`; when it is empty, the shipped decode strategy
  /// for the target's CPU features (see chooseStrategy). Sets `error` when it
  /// is missing or invalid, or when no shipped strategy fits the target.
  mlir::FailureOr<TransformScript> loadStrategy(const StrategyOptions &options,
                                                std::string &error);

private:
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
};

} // namespace qforge

#endif // QFORGE_DRIVER_SESSION_H
