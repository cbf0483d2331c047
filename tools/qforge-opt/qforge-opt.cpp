//===- qforge-opt.cpp - mlir-opt with qforge's transform extension --------===//
//
// Every upstream dialect, pass and extension (as in mlir-opt) plus the
// transform.qforge.* ops, so transform scripts run with
// `qforge-opt --transform-interpreter`, and qforge's passes
// (--qforge-normalize-quant-storage, --qforge-lower-quant).
//
//===----------------------------------------------------------------------===//

#include "Driver/ToolRegistry.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  qforge::registerToolEverything(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "qforge optimizer driver\n", registry));
}
