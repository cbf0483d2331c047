//===- qforge-reduce.cpp - mlir-reduce with qforge's registry -------------===//
//
// Upstream's test-case reducer with every dialect, pass and extension
// qforge-opt knows: a kernel (or transform script) that crashes qforge or
// gives a wrong result shrinks to a small test while an "interestingness"
// script (e.g. `qforge-compile $1 ... 2>&1 | grep 'the message'`) keeps
// holding. README ("Reducing a failure") shows a session.
//
//===----------------------------------------------------------------------===//

#include "Quant/Passes.h"
#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  qforge::registerQForgePasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  qforge::registerTransformExtension(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}
