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
#include "Driver/StrategyTable.h"
#include "Driver/Target.h"
#include "Driver/TargetInfo.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace qforge {

/// The target's description for `choice`, computed once per process and
/// target (null, with `error` set, for an unknown CPU or feature).
const TargetInfo *getTargetInfo(const TargetChoice &choice, std::string &error);

/// What the strategy table reads of `options`.
StrategyRequest getStrategyRequest(const StrategyOptions &options);

/// The strategy table's row for `options` (transforms/strategy-table.json,
/// docs/strategy-table.md): the first row of the family the flags and the
/// token count ask for whose condition holds on the target. None, with
/// `error` saying what is missing, when no row does.
std::optional<StrategySelection> selectStrategy(const StrategyOptions &options,
                                                std::string &error);

/// With --strategy-row: checks it names a row and no --script or flag is
/// given, and sets the flags from the row's family.
mlir::LogicalResult applyRowFlags(StrategyOptions &options, std::string &error);

/// Records on `function` the params of the row `options` select
/// (qforge.strategy_params, read by transform.qforge.strategy_param); with
/// --script too, so that a copy of a family script reads its target's
/// numbers. Records nothing when no row fits.
void recordStrategyParams(mlir::func::FuncOp function,
                          const StrategyOptions &options);

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
  mlir::FailureOr<TransformScript> loadStrategy(const StrategyOptions &options,
                                                std::string &error);

private:
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
};

} // namespace qforge

#endif // QFORGE_DRIVER_SESSION_H
