//===- Session.h - what every qforge tool sets up ----------------*- C++ -*-===//
//
// The MLIR context with qforge's dialects, diagnostics printed with source
// lines, the input kernel module, and the strategy script.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_SESSION_H
#define QFORGE_DRIVER_SESSION_H

#include "Driver/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace qforge {

class Session {
public:
  Session();
  mlir::MLIRContext &getContext() { return *context; }

  /// Parses a .mlir or .mlirbc file; on failure the diagnostics were printed
  /// (or `error` says why the file could not be read) and the result is null.
  mlir::OwningOpRef<mlir::ModuleOp> parseInput(llvm::StringRef path,
                                               std::string &error);

  /// Loads `path`, or the shipped default strategy when it is empty
  /// (transforms/decode-factored-avx512.mlir; $QFORGE_TRANSFORMS_DIR
  /// overrides the folder). Sets `error` when it is missing or invalid.
  mlir::FailureOr<TransformScript> loadStrategy(llvm::StringRef path,
                                                std::string &error);

private:
  std::unique_ptr<mlir::MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
};

} // namespace qforge

#endif // QFORGE_DRIVER_SESSION_H
