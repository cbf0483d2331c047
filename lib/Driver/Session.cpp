//===- Session.cpp - what every qforge tool sets up -----------------------===//

#include "Driver/Session.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

qforge::Session::Session() {
  DialectRegistry registry;
  registerCompilerDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
}

OwningOpRef<ModuleOp> qforge::Session::parseInput(StringRef path,
                                                  std::string &error) {
  auto input = openInputFile(path, &error);
  if (!input)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, context.get());
}

FailureOr<qforge::TransformScript>
qforge::Session::loadStrategy(StringRef path, std::string &error) {
  std::string script = path.str();
  if (script.empty()) {
    const char *dir = std::getenv("QFORGE_TRANSFORMS_DIR");
    script = std::string(dir ? dir : QFORGE_TRANSFORMS_DIR) +
             "/decode-factored-avx512.mlir";
  }
  if (!llvm::sys::fs::exists(script)) {
    error = "transform script '" + script + "' not found";
    return failure();
  }
  FailureOr<TransformScript> strategy =
      TransformScript::load(context.get(), script);
  if (failed(strategy))
    error = "cannot load the transform script '" + script + "'";
  return strategy;
}
