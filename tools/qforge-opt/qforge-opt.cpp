//===- qforge-opt.cpp - mlir-opt with qforge's transform extension --------===//
//
// Every upstream dialect, pass and extension (as in mlir-opt) plus the
// transform.qforge.* ops, so transform scripts run with
// `qforge-opt --transform-interpreter`, and qforge's passes
// (--qforge-normalize-quant-storage, --qforge-lower-quant,
// --qforge-select-strategy).
//
//===----------------------------------------------------------------------===//

#include "Driver/InputCheck.h"
#include "Driver/Script.h"
#include "Driver/SelectStrategy.h"
#include "Driver/Surgery.h"
#include "Driver/ToolRegistry.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

/// The files of `--transform-preload-library=transform-library-paths=A,B`
/// merge into one library before the interpreter runs, where MLIR 22 crashes
/// on files that clash (assembleTransformLibrary in Driver/Script.h): they
/// are merged here first, and a clash ends the tool with its diagnostic.
static bool preloadLibrariesMerge(int argc, char **argv,
                                  mlir::DialectRegistry &registry) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (!arg.consume_front("--transform-preload-library=") &&
        !arg.consume_front("-transform-preload-library="))
      continue;
    arg = arg.trim("'\"{} ");
    if (!arg.consume_front("transform-library-paths="))
      continue;
    llvm::SmallVector<llvm::StringRef> split;
    arg.trim("'\"{} ").split(split, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef path : split)
      paths.push_back(path.str());
  }
  if (paths.empty())
    return true;
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> library;
  return mlir::succeeded(
      qforge::assembleTransformLibrary(&context, paths, library));
}

int main(int argc, char **argv) {
  if (std::optional<int> status = qforge::runReadCheckIfAsked(argc, argv))
    return *status;
  if (!qforge::checkInputArguments("qforge-opt", argc, argv))
    return 1;
  mlir::DialectRegistry registry;
  qforge::registerToolEverything(registry);
  // The strategy table's choice, recorded without compiling
  // (test/Driver/select-strategy.mlir).
  qforge::registerSelectStrategyPass();
  // The driver's IR surgery, one pass each (Driver/Surgery.h).
  qforge::registerSurgeryPasses();
  if (!preloadLibrariesMerge(argc, argv, registry))
    return 1;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "qforge optimizer driver\n", registry));
}
