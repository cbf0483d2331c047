//===- Registration.cpp - what qforge's tools can parse and translate -----===//

#include "Driver/Pipelines.h"
#include "Driver/SelectStrategy.h"
#include "Driver/Surgery.h"
#include "Quant/Passes.h"
#include "TransformOps/QForgeTransformOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"

void qforge::registerCompilerDialects(mlir::DialectRegistry &registry) {
  // The passes are looked up by name when the pipelines are parsed.
  mlir::registerAllPasses();
  qforge::registerQForgePasses();
  qforge::registerSelectStrategyPass();
  qforge::registerSurgeryPasses();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
  qforge::registerTransformExtension(registry);
}

void qforge::registerSurgeryPasses() {
  mlir::registerPass(createOutlineQuantizedMatmulsPass);
  mlir::registerPass(createVectorizeElementwisePass);
  mlir::registerPass(createSpecializeTokenCountPass);
  mlir::registerPass(createBuildTokenDispatchPass);
  mlir::registerPass(createMergeIdenticalFunctionsPass);
  mlir::registerPass(createConvertControlFlowToLLVMPass);
}
