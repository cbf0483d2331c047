//===- qforge-compile.cpp - script + lowering + LLVM CPU backend ----------===//
//
//   qforge-compile INPUT.mlir [--script=FILE] [--entry=NAME]
//                 [--emit=mlir|lowered|llvm|asm|obj|shared] [-o OUT]
//                 [--mcpu=native|NAME] [--mattr=...] [--header=FILE]
//                 [--int8-activations]
//
// Runs the transform script on the input (without --script: the default
// decode strategy from transforms/), then qforge's fixed lowering
// (docs/lowering.md), then LLVM for the chosen CPU.
//
//===----------------------------------------------------------------------===//

#include "Abi/AbiAttributes.h"
#include "Driver/Abi.h"
#include "Driver/CompileGuard.h"
#include "Driver/InputCheck.h"
#include "Driver/Options.h"
#include "Driver/ParallelCodegen.h"
#include "Driver/Pipelines.h"
#include "Driver/SelectStrategy.h"
#include "Driver/Session.h"
#include "Driver/Strategies.h"
#include "Driver/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { MLIR, Lowered, LLVM, Asm, Obj, Shared };

cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<input .mlir/.mlirbc>"),
                               cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<std::string> entryName("entry", cl::desc("kernel function name"),
                               cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<Emit> emitKind(
    "emit", cl::desc("what to write"), cl::cat(qforge::optionCategory()),
    cl::init(Emit::Obj),
    cl::values(clEnumValN(Emit::MLIR, "mlir", "IR after the script"),
               clEnumValN(Emit::Lowered, "lowered",
                          "IR after the fixed lowering (LLVM dialect)"),
               clEnumValN(Emit::LLVM, "llvm", "optimized LLVM IR"),
               clEnumValN(Emit::Asm, "asm", "assembly"),
               clEnumValN(Emit::Obj, "obj", "object file"),
               clEnumValN(Emit::Shared, "shared", "shared library")));
cl::opt<std::string> outputFile("o", cl::desc("output file ('-' for stdout)"),
                                cl::cat(qforge::optionCategory()),
                                cl::init(""));
cl::opt<bool> timing(
    "timing",
    cl::desc("print the wall-clock time of each phase of the compile "
             "(reading, strategies, lowering, LLVM optimization, machine "
             "code) to stderr"),
    cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<bool> printStrategy(
    "print-strategy",
    cl::desc("print each quantized matmul's strategy (family, table row, "
             "script and why) and stop; nothing is compiled"),
    cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<bool> printStrategyTable(
    "print-strategy-table",
    cl::desc("print the strategy table (with --strategy-table merged) as "
             "Markdown and stop"),
    cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<unsigned> codegenThreads(
    "codegen-threads",
    cl::desc("threads that generate machine code for an object or shared "
             "library, each for its own kernels (default 0: one per core; "
             "1: one thread, the module as one unit)"),
    cl::cat(qforge::optionCategory()), cl::init(0));
cl::opt<unsigned> codegenSplitThreshold(
    "codegen-split-threshold",
    cl::desc("modules of fewer LLVM instructions are generated in one piece "
             "(tests: 0 splits any module with independent functions)"),
    cl::Hidden, cl::init(qforge::kSmallestSplitModule));
cl::opt<std::string> headerFile("header",
                                cl::desc("also write the kernel's C header"),
                                cl::cat(qforge::optionCategory()),
                                cl::init(""));

std::string defaultOutput() {
  if (emitKind != Emit::Obj && emitKind != Emit::Shared)
    return "-";
  llvm::SmallString<128> path(llvm::sys::path::filename(inputFile));
  llvm::sys::path::replace_extension(path, emitKind == Emit::Obj ? "o" : "so");
  return std::string(path);
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "qforge-compile: error: " << message << "\n";
  return 1;
}

/// --print-strategy: the table's choice for each quantized matmul, or the
/// user's script. Exits non-zero when one has none (its diagnostic says
/// why).
int printStrategies(ModuleOp module) {
  qforge::StrategyOptions options = qforge::getStrategyOptions();
  qforge::prepareStrategyForms(module, options);
  SmallVector<qforge::MatmulSite> sites = qforge::findQuantizedMatmuls(module);
  if (sites.empty())
    llvm::outs() << "no quantized matmul recognised: the script sees the "
                    "whole module\n";
  if (!options.script.empty()) {
    llvm::outs() << "every quantized matmul: --script=" << options.script
                 << "\n";
    return 0;
  }
  std::string error;
  const qforge::TargetInfo *target =
      qforge::getTargetInfo(options.target, error);
  if (!target)
    return fail(error);
  const qforge::StrategyTable *table = qforge::StrategyTable::getActive(error);
  if (!table)
    return fail(error);
  llvm::StringRef cpuClass = table->getCpuClass(target->getCpu());
  llvm::outs() << "target: " << target->getDescription() << ", class "
               << (cpuClass.empty() ? "(none: rows by features only)"
                                    : cpuClass)
               << "\n";
  int status = 0;
  for (const qforge::MatmulSite &site : sites) {
    std::optional<qforge::SiteStrategy> choice =
        qforge::selectSiteStrategy(options, site);
    if (!choice) {
      status = 1;
      continue;
    }
    qforge::printSiteStrategy(llvm::outs(), site, *choice);
  }
  return status;
}

/// Links a PIC object into a shared library with LLVM 22's lld.
int linkShared(llvm::StringRef object, llvm::StringRef output) {
  std::string lld = QFORGE_LLD_PATH;
  // libomp only when the kernel calls it (a strategy with scf.forall).
  llvm::SmallVector<llvm::StringRef> args = {lld,
                                             "-shared",
                                             "-o",
                                             output,
                                             object,
                                             "--as-needed",
                                             "-L" QFORGE_LLVM_LIBRARY_DIR,
                                             "-rpath",
                                             QFORGE_LLVM_LIBRARY_DIR,
                                             "-lomp"};
  std::string error;
  int status =
      llvm::sys::ExecuteAndWait(lld, args, std::nullopt, {}, 0, 0, &error);
  if (status != 0)
    return fail("linking " + output + " with " + lld + " failed" +
                (error.empty() ? "" : ": " + error));
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  if (std::optional<int> status = qforge::runReadCheckIfAsked(argc, argv))
    return *status;
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(qforge::optionCategory());
  cl::ParseCommandLineOptions(argc, argv, "qforge kernel compiler\n");
  if (printStrategyTable) {
    std::string error;
    const qforge::StrategyTable *table =
        qforge::StrategyTable::getActive(error);
    if (!table)
      return fail(error);
    table->printMarkdown(llvm::outs());
    return 0;
  }
  if (inputFile.empty())
    return fail("no input file (qforge-compile KERNEL.mlir ...; --help)");

  // Bounded time and memory from here to the written output.
  qforge::CompileGuard guard("qforge-compile", inputFile);
  llvm::scope_exit printTiming([&] {
    if (timing)
      guard.printTiming(llvm::errs());
  });
  qforge::Session session;
  std::string error;
  guard.setPhase("reading and normalizing the input");
  OwningOpRef<ModuleOp> module = session.parseInput(inputFile, error);
  if (!module)
    return error.empty() ? 1 : fail(error);
  FailureOr<func::FuncOp> kernel = qforge::findKernel(*module, entryName);
  if (failed(kernel))
    return 1;

  if (printStrategy)
    return printStrategies(*module);

  std::string output = outputFile.empty() ? defaultOutput() : outputFile;
  // Open the output before the work so an unwritable path fails fast.
  std::string outputPath = emitKind == Emit::Shared ? output + ".o" : output;
  auto outFile = openOutputFile(outputPath, &error);
  if (!outFile)
    return fail("cannot write '" + outputPath + "': " + error);
  // The header too: a failure leaves neither file behind.
  std::unique_ptr<llvm::ToolOutputFile> headerOut;
  if (!headerFile.empty()) {
    headerOut = openOutputFile(headerFile, &error);
    if (!headerOut)
      return fail("cannot write '" + headerFile + "': " + error);
  }

  qforge::StrategyOptions options = qforge::getStrategyOptions();
  const qforge::TargetChoice &target = options.target;
  std::string name = kernel->getSymName().str();
  guard.setPhase("applying the transform strategy to @" + name);
  FailureOr<qforge::StrategyPlan> strategy =
      qforge::applyStrategies(session, *module, *kernel, options, error);
  if (failed(strategy))
    return fail(error);
  std::string script = strategy->describe();
  // The C interface (docs/abi.md) exists only for a public kernel.
  auto scripted = module->lookupSymbol<func::FuncOp>(name);
  if (!scripted)
    return fail("the transform script '" + script + "' removed @" + name);
  if (!scripted.isPublic())
    return fail("the transform script '" + script + "' made @" + name +
                " private: it would get no C interface (docs/abi.md)");

  // The header describes the kernel after the script (which may have split
  // its parameter packing off, docs/abi.md) and before lowering (the
  // function is gone then); it is written only once the kernel compiled.
  std::string headerText;
  if (!headerFile.empty()) {
    func::FuncOp packWeights = qforge::getPackWeightsFunction(scripted);
    if (!packWeights && scripted->hasAttr(qforge::kPackWeightsAttr))
      return fail("@" + name +
                  " names a weight-packing function that is not "
                  "a function of the module; no header written");
    llvm::raw_string_ostream headerStream(headerText);
    qforge::writeCHeader(scripted, packWeights, headerStream);
  }

  // Keeps a written output, or -- on a write error such as a full disk or
  // /dev/full -- reports it and lets the file be removed (an unchecked
  // stream error would end the process with a fatal error instead).
  auto finish = [&](llvm::ToolOutputFile &file, llvm::StringRef path) {
    file.os().flush();
    if (file.os().has_error()) {
      std::string message = file.os().error().message();
      file.os().clear_error();
      fail("cannot write '" + path + "': " + message);
      return false;
    }
    file.keep();
    return true;
  };
  auto writeHeader = [&]() -> int {
    if (!headerOut)
      return 0;
    headerOut->os() << headerText;
    return finish(*headerOut, headerFile) ? 0 : 1;
  };

  if (emitKind == Emit::MLIR) {
    module->print(outFile->os());
    if (!finish(*outFile, outputPath))
      return 1;
    return writeHeader();
  }

  guard.setPhase("lowering @" + name + " (" + script + ") to the LLVM dialect");
  FunctionType signature = scripted.getFunctionType();
  if (failed(qforge::lowerToLLVMDialect(*module, *strategy)))
    return fail("lowering to the LLVM dialect failed (see above)");
  qforge::recordSignature(*module, name, signature);
  if (emitKind == Emit::Lowered) {
    module->print(outFile->os());
    if (!finish(*outFile, outputPath))
      return 1;
    return writeHeader();
  }

  std::unique_ptr<llvm::TargetMachine> machine =
      qforge::createTargetMachine(target, error);
  if (!machine)
    return fail(error);
  llvm::LLVMContext llvmContext;
  // An object or shared library is optimized in parts, each on its own
  // thread with its machine code (ParallelCodegen.h); LLVM IR and assembly
  // are the module optimized as one.
  bool inParts = emitKind == Emit::Obj || emitKind == Emit::Shared;
  guard.setPhase("translating @" + name + " to LLVM IR" +
                 (inParts ? "" : " and optimizing it"));
  std::unique_ptr<llvm::Module> llvmModule =
      inParts
          ? qforge::translateToLLVMIR(*module, llvmContext, *machine, target)
          : qforge::translateAndOptimize(*module, llvmContext, *machine,
                                         target);
  if (!llvmModule)
    return fail("translation to LLVM IR failed");

  if (emitKind == Emit::LLVM) {
    llvmModule->print(outFile->os(), nullptr);
    if (!finish(*outFile, outputPath))
      return 1;
    return writeHeader();
  }
  if (emitKind == Emit::Asm) {
    guard.setPhase("generating machine code for @" + name);
    if (!qforge::emitMachineCode(*llvmModule, *machine, /*assembly=*/true,
                                 outFile->os(), error))
      return fail(error);
  } else {
    guard.setPhase("optimizing @" + name + " and generating machine code");
    llvm::SmallVector<char, 0> object;
    unsigned partitions = 0;
    unsigned instructions = llvmModule->getInstructionCount();
    if (!qforge::emitObjectInParallel(*llvmModule, target, codegenThreads,
                                      codegenSplitThreshold, /*optimize=*/true,
                                      object, error, &partitions))
      return fail(error);
    if (timing)
      llvm::errs()
          << "machine code of " << instructions << " LLVM instructions in "
          << partitions << " partition" << (partitions == 1 ? "" : "s")
          << " on "
          << llvm::hardware_concurrency(codegenThreads).compute_thread_count()
          << " thread(s)\n";
    outFile->os().write(object.data(), object.size());
  }
  if (!finish(*outFile, outputPath))
    return 1;
  if (emitKind == Emit::Shared) {
    int status = linkShared(outputPath, output);
    llvm::sys::fs::remove(outputPath);
    if (status != 0)
      return status;
  }
  return writeHeader();
}
