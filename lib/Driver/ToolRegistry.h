//===- ToolRegistry.h - what the mlir-opt-like tools know -------*- C++ -*-===//
//
// qforge-opt, qforge-reduce and qforge-lsp-server are upstream tools with
// qforge's additions: every upstream dialect, extension and pass, plus the
// transform.qforge.* ops and qforge's input passes. Header-only: each tool
// links libMLIR.so and QForgeTransformOps already.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_TOOLREGISTRY_H
#define QFORGE_DRIVER_TOOLREGISTRY_H

#include "Quant/Passes.h"
#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace qforge {

/// Registers every upstream pass and qforge's passes (global, once per
/// process), and fills `registry` with every upstream dialect and extension
/// and qforge's transform extension.
inline void registerToolEverything(mlir::DialectRegistry &registry) {
  mlir::registerAllPasses();
  registerQForgePasses();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerTransformExtension(registry);
}

} // namespace qforge

#endif // QFORGE_DRIVER_TOOLREGISTRY_H
