//===- consumer-opt.cpp - a tool of another project using qforge's ops ----===//
//
// Stock mlir-opt's dialects and passes, plus the transform.qforge.*
// extension from the installed libQForgeTransformOps.so.
//
//===----------------------------------------------------------------------===//

#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  qforge::registerTransformExtension(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "qforge consumer\n", registry));
}
