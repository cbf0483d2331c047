//===- qforge-reduce.cpp - mlir-reduce with qforge's registry -------------===//
//
// Upstream's test-case reducer with every dialect, pass and extension
// qforge-opt knows: a kernel (or transform script) that crashes qforge or
// gives a wrong result shrinks to a small test while an "interestingness"
// script (e.g. `qforge-compile $1 ... 2>&1 | grep 'the message'`) keeps
// holding. README ("Reducing a failure") shows a session.
//
//===----------------------------------------------------------------------===//

#include "Driver/InputCheck.h"
#include "Driver/ToolRegistry.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  if (std::optional<int> status = qforge::runReadCheckIfAsked(argc, argv))
    return *status;
  if (!qforge::checkInputArguments("qforge-reduce", argc, argv))
    return 1;
  mlir::DialectRegistry registry;
  qforge::registerToolEverything(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}
