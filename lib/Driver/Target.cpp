//===- Target.cpp - LLVM's CPU backend for qforge kernels -----------------===//

#include "Driver/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

std::unique_ptr<llvm::TargetMachine>
qforge::createTargetMachine(const TargetChoice &choice, std::string &error,
                            bool forJIT) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;

  std::string cpu = choice.cpu;
  std::string features;
  if (cpu == "native") {
    cpu = llvm::sys::getHostCPUName().str();
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features += (feature.second ? ",+" : ",-") + feature.first().str();
  } else {
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(triple, cpu, ""));
    if (!info || !info->isCPUStringValid(cpu)) {
      error = "unknown CPU '" + cpu + "' for target " + triple.str() +
              " (try --mcpu=native)";
      return nullptr;
    }
  }
  if (!choice.attrs.empty())
    features += "," + choice.attrs;
  if (!features.empty() && features.front() == ',')
    features.erase(0, 1);

  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive, forJIT));
  if (!machine)
    error = "cannot create a target machine for " + triple.str();
  return machine;
}

std::unique_ptr<llvm::Module>
qforge::translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &context,
                             llvm::TargetMachine &machine) {
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return nullptr;
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  // Function attributes carry the CPU and features into LLVM's passes.
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine.getTargetCPU());
    function.addFnAttr("target-features", machine.getTargetFeatureString());
  }
  auto optimize = mlir::makeOptimizingTransformer(3, 0, &machine);
  if (llvm::Error error = optimize(llvmModule.get())) {
    llvm::consumeError(std::move(error));
    return nullptr;
  }
  return llvmModule;
}

bool qforge::emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                             bool assembly, llvm::raw_pwrite_stream &out,
                             std::string &error) {
  llvm::legacy::PassManager passes;
  auto fileType = assembly ? llvm::CodeGenFileType::AssemblyFile
                           : llvm::CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(passes, out, nullptr, fileType)) {
    error = "the target cannot emit this file type";
    return false;
  }
  passes.run(module);
  return true;
}
