//===- Registration.cpp - what qforge's tools can parse and translate -----===//

#include "Driver/Pipelines.h"
#include "Driver/SelectStrategy.h"
#include "Quant/Passes.h"
#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"

void qforge::registerCompilerDialects(mlir::DialectRegistry &registry) {
  // The passes are looked up by name when the pipelines are parsed.
  mlir::registerAllPasses();
  qforge::registerQForgePasses();
  qforge::registerSelectStrategyPass();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
  qforge::registerTransformExtension(registry);
}
