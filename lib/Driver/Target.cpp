//===- Target.cpp - LLVM's CPU backend for qforge kernels -----------------===//

#include "Driver/Target.h"
#include "Patterns/NibbleTables.h"
#include "Rewrites/ExpandByteDotProducts.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

/// Appends the --mattr entries of `choice` to `features`, each checked: an
/// entry is +feature or -feature of a feature `info`'s target knows (LLVM
/// only warns about one it does not know, and ignores it: a typo would
/// silently compile for another target than asked). False, with `error`
/// set, otherwise.
static bool appendCheckedAttrs(const llvm::MCSubtargetInfo &info,
                               const qforge::TargetChoice &choice,
                               std::string &features, std::string &error) {
  if (choice.attrs.empty())
    return true;
  // LLVM only warns about a feature it does not know (and ignores it): a
  // typo would silently compile for another target than asked.
  llvm::SmallVector<llvm::StringRef> entries;
  llvm::StringRef(choice.attrs).split(entries, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef entry : entries) {
    llvm::StringRef name = entry.trim();
    if (!name.consume_front("+") && !name.consume_front("-")) {
      error =
          "--mattr entries are +feature or -feature, got '" + entry.str() + "'";
      return false;
    }
    if (!llvm::any_of(info.getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &known) {
                        return name == known.Key;
                      })) {
      error = "unknown target feature '" + name.str() + "' in --mattr (" +
              "the list: llc -mattr=help)";
      return false;
    }
    // What was checked is what LLVM gets (it would ignore " +avx2").
    features += "," + entry.trim().str();
  }
  return true;
}

/// Whether code for `machine` runs on this host: code run in this process
/// must not use what this CPU lacks (false, with `error` set, otherwise).
static bool checkRunsOnHost(const llvm::TargetMachine &machine,
                            const qforge::TargetChoice &choice,
                            const std::string &cpu, std::string &error) {
  // Code run in this process must not use what this CPU lacks: it would
  // stop on an illegal instruction. The host's map names the instruction
  // set features it knows of; of those, the ones instruction selection may
  // use on its own count (not, say, protection keys or user interrupts,
  // which only their intrinsics emit).
  auto selectable = [](llvm::StringRef feature) {
    static const char *const prefixes[] = {
        "sse",    "ssse3", "avx",  "fma",  "f16c", "bmi",       "lzcnt",
        "popcnt", "movbe", "egpr", "ndd",  "ppx",  "push2pop2", "ccmp",
        "nf",     "zu",    "cf",   "gfni", "adx",  "evex512"};
    return llvm::any_of(prefixes, [&](const char *prefix) {
      return feature.starts_with(prefix);
    });
  };
  const llvm::MCSubtargetInfo *subtarget = machine.getMCSubtargetInfo();
  llvm::SmallVector<std::string> lacking;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    if (!feature.second && selectable(feature.first()) &&
        subtarget->checkFeatures("+" + feature.first().str()))
      lacking.push_back(feature.first().str());
  llvm::sort(lacking);
  std::string missing = llvm::join(lacking, ", ");
  if (!missing.empty()) {
    error = "the target (" + qforge::describeTarget(choice, cpu) +
            ") uses features this machine lacks (" + missing +
            "): the kernel cannot run here; compile it with qforge-compile, "
            "or choose --mcpu=native";
    return false;
  }
  return true;
}

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
  }
  // The CPU's own description: whether it and the --mattr features exist.
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, cpu, ""));
  if (choice.cpu != "native" && (!info || !info->isCPUStringValid(cpu))) {
    error = "unknown CPU '" + cpu + "' for target " + triple.str() +
            " (try --mcpu=native)";
    return nullptr;
  }
  if (!appendCheckedAttrs(*info, choice, features, error))
    return nullptr;
  if (!features.empty() && features.front() == ',')
    features.erase(0, 1);

  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive, forJIT));
  if (!machine) {
    error = "cannot create a target machine for " + triple.str();
    return nullptr;
  }
  if (forJIT && (choice.cpu != "native" || !choice.attrs.empty()) &&
      !checkRunsOnHost(*machine, choice, cpu, error))
    return nullptr;
  return machine;
}

std::string qforge::describeTarget(const TargetChoice &choice,
                                   llvm::StringRef cpu) {
  return "CPU '" + cpu.str() + "'" +
         (choice.attrs.empty() ? "" : " with --mattr=" + choice.attrs);
}

namespace {
/// What an x86 intrinsic the strategies emit needs: any one of `options`,
/// each a MCSubtargetInfo::checkFeatures string, and how to say it.
struct IntrinsicNeeds {
  llvm::SmallVector<llvm::StringRef> options;
  llvm::StringRef description;
};
} // namespace

static std::optional<IntrinsicNeeds> needsOfIntrinsic(llvm::StringRef name) {
  // What is left of a vpdpbusd after legalizeIntrinsics: the target has
  // none of its forms (the 128/256-bit ones VEX-encoded on AVX-VNNI CPUs)
  // nor what the expansion needs.
  if (name == "llvm.x86.avx512.vpdpbusd.512")
    return IntrinsicNeeds{{"+avx512vnni"}, "AVX512-VNNI, AVX-VNNI or AVX2"};
  if (name == "llvm.x86.avx512.vpdpbusd.256")
    return IntrinsicNeeds{{"+avx512vnni,+avx512vl", "+avxvnni"},
                          "AVX512-VNNI with AVX512VL, AVX-VNNI or AVX2"};
  if (name == "llvm.x86.avx512.vpdpbusd.128")
    return IntrinsicNeeds{{"+avx512vnni,+avx512vl", "+avxvnni"},
                          "AVX512-VNNI with AVX512VL, AVX-VNNI or SSSE3"};
  // What legalizeIntrinsics expands them into without VNNI.
  if (name == "llvm.x86.avx2.pmadd.ub.sw" || name == "llvm.x86.avx2.pmadd.wd")
    return IntrinsicNeeds{{"+avx2"}, "AVX2"};
  if (name == "llvm.x86.ssse3.pmadd.ub.sw.128")
    return IntrinsicNeeds{{"+ssse3"}, "SSSE3"};
  if (name == "llvm.x86.sse2.pmadd.wd")
    return IntrinsicNeeds{{"+sse2"}, "SSE2"};
  // A 512-bit vpermps left after legalizeIntrinsics: its table is not one
  // of the nibbles' (only hand-written IR has such a call).
  if (name == "llvm.x86.avx512.permvar.sf.512")
    return IntrinsicNeeds{{"+avx512f"}, "AVX-512F"};
  return std::nullopt;
}

mlir::LogicalResult
qforge::legalizeIntrinsics(mlir::ModuleOp module,
                           const llvm::TargetMachine &machine,
                           const TargetChoice &choice) {
  const llvm::MCSubtargetInfo *info = machine.getMCSubtargetInfo();
  auto has = [&](llvm::StringRef features) {
    return info->checkFeatures(features);
  };
  ByteDotProductTarget byteDots;
  byteDots.hasVnni512 = has("+avx512vnni");
  byteDots.hasVnni256 = has("+avx512vnni,+avx512vl") || has("+avxvnni");
  byteDots.hasAvx2 = has("+avx2");
  byteDots.hasSsse3 = has("+ssse3");
  // The nibble tables (x86_nibble_tables) are vpermps of 512 bits; without
  // AVX-512F each lookup becomes the conversion it stands for.
  bool expandLookups = !has("+avx512f");
  llvm::SmallVector<mlir::LLVM::CallIntrinsicOp> dotProducts, lookups;
  module.walk([&](mlir::LLVM::CallIntrinsicOp call) {
    if (getVpdpbusdLanes(call))
      dotProducts.push_back(call);
    else if (expandLookups && isNibbleTableLookup(call))
      lookups.push_back(call);
  });
  mlir::IRRewriter rewriter(module.getContext());
  // A call the target cannot compute stays, for the diagnostic below.
  for (mlir::LLVM::CallIntrinsicOp call : dotProducts)
    (void)legalizeVpdpbusd(rewriter, call, byteDots);
  for (mlir::LLVM::CallIntrinsicOp call : lookups)
    (void)expandNibbleTableLookup(rewriter, call);
  mlir::WalkResult result = module.walk([&](mlir::LLVM::CallIntrinsicOp call) {
    std::optional<IntrinsicNeeds> needs = needsOfIntrinsic(call.getIntrin());
    if (!needs || llvm::any_of(needs->options, [&](llvm::StringRef option) {
          return info->checkFeatures(option);
        }))
      return mlir::WalkResult::advance();
    call.emitError() << call.getIntrin()
                     << " (from the transform script) needs "
                     << needs->description << ", which the target ("
                     << describeTarget(choice, machine.getTargetCPU())
                     << ") lacks; use a script without it, or another "
                        "--mcpu/--mattr";
    return mlir::WalkResult::interrupt();
  });
  return mlir::failure(result.wasInterrupted());
}

/// Whether `function`'s control flow has a cycle.
static bool hasLoop(llvm::Function &function) {
  if (function.isDeclaration())
    return false;
  for (auto scc = llvm::scc_begin(&function); !scc.isAtEnd(); ++scc)
    if (scc.hasCycle())
      return true;
  return false;
}

/// A store of a zero vector wider than this many bytes becomes a memset.
static constexpr uint64_t kLargestZeroVectorStore = 512;

/// Rewrites each store of a wide zero vector into llvm.memset. The vectorized
/// initialization of a whole result (`vector<11008xf32>` zeros, a matmul's
/// output before its rows are written) reached instruction selection as one
/// 43 KB store, whose legalization into 688 stores took most of a kernel's
/// code generation; a memset is the same bytes at the same speed.
static void storeWideZerosWithMemset(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::SmallVector<llvm::StoreInst *> stores;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block)
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
          auto *value =
              llvm::dyn_cast<llvm::Constant>(store->getValueOperand());
          if (value && value->getType()->isVectorTy() && value->isNullValue() &&
              !store->isVolatile() && !store->isAtomic() &&
              layout.getTypeStoreSize(value->getType()).getFixedValue() >
                  kLargestZeroVectorStore)
            stores.push_back(store);
        }
  for (llvm::StoreInst *store : stores) {
    llvm::IRBuilder<> builder(store);
    builder.CreateMemSet(
        store->getPointerOperand(), builder.getInt8(0),
        layout.getTypeStoreSize(store->getValueOperand()->getType())
            .getFixedValue(),
        store->getAlign());
    store->eraseFromParent();
  }
}

/// LLVM's -O3 pipeline, as mlir::makeOptimizingTransformer builds it, with
/// two differences that matter for whole models: the standard
/// instrumentations, so that an `optnone` function (the loop-free glue) is
/// really skipped by the function passes, and no CalledValuePropagation --
/// it only annotates indirect calls, which qforge's code has none of, and
/// took ~93% of -O3 on a 32-layer module's 5,182-argument public function.
void qforge::optimizeModule(llvm::Module &module,
                            llvm::TargetMachine &machine) {
  storeWideZerosWithMemset(module);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassInstrumentationCallbacks callbacks;
  llvm::StandardInstrumentations standard(module.getContext(),
                                          /*DebugLogging=*/false);
  standard.registerCallbacks(callbacks, &modules);
  callbacks.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        return pass != "CalledValuePropagationPass";
      });
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, modules);
}

std::unique_ptr<llvm::Module>
qforge::translateAndOptimize(mlir::ModuleOp module, llvm::LLVMContext &context,
                             llvm::TargetMachine &machine,
                             const TargetChoice &choice) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVMIR(module, context, machine, choice);
  if (llvmModule)
    optimizeModule(*llvmModule, machine);
  return llvmModule;
}

std::unique_ptr<llvm::Module>
qforge::translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                          llvm::TargetMachine &machine,
                          const TargetChoice &choice) {
  if (mlir::failed(legalizeIntrinsics(module, machine, choice)))
    return nullptr;
  llvm::SmallVector<std::string> forSize, notOptimized;
  module.walk([&](mlir::LLVM::LLVMFuncOp function) {
    std::string name = function.getSymName().str();
    if (function->hasAttr(kNotOptimizedAttr)) {
      notOptimized.push_back(name);
      notOptimized.push_back("_mlir_ciface_" + name);
    } else if (function->hasAttr(kOptimizeForSizeAttr)) {
      forSize.push_back(name);
    }
  });
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return nullptr;
  for (const std::string &name : forSize)
    if (llvm::Function *function = llvmModule->getFunction(name))
      function->addFnAttr(llvm::Attribute::OptimizeForSize);
  for (const std::string &name : notOptimized)
    if (llvm::Function *function = llvmModule->getFunction(name)) {
      // Ops without regions can still become loops (a pack function's
      // linalg.pack): such a function is optimized for size.
      if (hasLoop(*function)) {
        function->addFnAttr(llvm::Attribute::OptimizeForSize);
        continue;
      }
      function->removeFnAttr(llvm::Attribute::AlwaysInline);
      function->addFnAttr(llvm::Attribute::OptimizeNone);
      function->addFnAttr(llvm::Attribute::NoInline);
    }
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  // Function attributes carry the CPU and features into LLVM's passes.
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine.getTargetCPU());
    function.addFnAttr("target-features", machine.getTargetFeatureString());
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
