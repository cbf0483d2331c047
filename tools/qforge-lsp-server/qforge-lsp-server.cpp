//===- qforge-lsp-server.cpp - mlir-lsp-server that knows qforge ----------===//
//
// Upstream's MLIR language server with every dialect and extension
// qforge-opt registers, transform.qforge.* included: an editor opening a
// strategy script gets diagnostics as it is typed, hover and go-to-definition
// of named sequences, where stock mlir-lsp-server reports every qforge op as
// unknown. README ("Editor support") says how to point an editor at it.
//
//===----------------------------------------------------------------------===//

#include "Driver/ToolRegistry.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  qforge::registerToolEverything(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
