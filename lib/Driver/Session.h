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
#include "Driver/SelectStrategy.h"
#include "Driver/StrategyTable.h"
#include "Driver/Target.h"
#include "Driver/TargetInfo.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace qforge {

/// The selected row's script path ("" with `error` set when none).
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
  /// A script is read once per session: a model's matmuls that take the
  /// same script share it, and the script library is read once for all.
  mlir::FailureOr<TransformScript> loadStrategy(const StrategyOptions &options,
                                                std::string &error);

private:
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
  /// After the context: destroyed before it.
  llvm::StringMap<TransformScript> loadedScripts;
  /// The script library, read from its files once per session (by the
  /// first script that includes it) and copied into each script: reading
  /// it took 38 ms of each script's load on Zen 1, twice for a dynamic M's
  /// two scripts (TransformScript::load).
  mlir::OwningOpRef<mlir::ModuleOp> scriptLibrary;
};

} // namespace qforge

#endif // QFORGE_DRIVER_SESSION_H
