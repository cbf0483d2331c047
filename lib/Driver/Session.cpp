//===- Session.cpp - what every qforge tool sets up -----------------------===//

#include "Driver/Session.h"
#include "Driver/InputCheck.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

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
  // Read in a child first; a bytecode file arrives as the child's text.
  std::vector<ReaderError> readerErrors;
  std::unique_ptr<llvm::MemoryBuffer> merged;
  FailureOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      readInputApart(path, readerErrors, error, &merged);
  if (failed(input))
    return nullptr;
  if (!*input) {
    // Each error with its notes, as the reader would have reported them.
    std::optional<InFlightDiagnostic> diagnostic;
    for (const ReaderError &readerError : readerErrors) {
      Location location =
          FileLineColLoc::get(context.get(), readerError.file, readerError.line,
                              readerError.column);
      if (readerError.isNote && diagnostic) {
        diagnostic->attachNote(location) << readerError.message;
        continue;
      }
      diagnostic.emplace(emitError(location) << readerError.message);
    }
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*input), llvm::SMLoc());
  OwningOpRef<ModuleOp> module;
  // The child's text of the module with its identical functions merged
  // (its ops keep their locations in the file, whose lines the diagnostics
  // quote); should that text not parse, the file itself.
  if (merged) {
    ScopedDiagnosticHandler quiet(context.get(),
                                  [](Diagnostic &) { return success(); });
    module = parseSourceString<ModuleOp>(merged->getBuffer(),
                                         ParserConfig(context.get()),
                                         merged->getBufferIdentifier());
  }
  if (!module)
    module = parseSourceFile<ModuleOp>(sourceMgr, context.get());
  // Quantized types and ops (docs/quantization.md): signed storage becomes
  // signless, and quant.qcast/dcast their exact integer arithmetic; i4
  // arguments become bytes of two nibbles (docs/abi.md); group-quantized
  // matmuls as producers spell them take the canonical form the strategies
  // read (docs/forms.md); private functions identical but for their names
  // (a model's layers) are one. Before anything else sees the kernel.
  if (module) {
    PassManager pm(context.get(), ModuleOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(parsePassPipeline(
            "qforge-merge-identical-functions,"
            "qforge-normalize-quant-storage,qforge-lower-quant,"
            "qforge-normalize-dequant-contraction,"
            "qforge-store-int4-as-byte-pairs,"
            "qforge-merge-identical-functions",
            pm, errorStream)) ||
        failed(pm.run(*module)))
      return nullptr;
  }
  return module;
}

std::string qforge::chooseStrategy(const StrategyOptions &options,
                                   std::string &error) {
  std::optional<StrategySelection> selection = selectStrategy(options, error);
  return selection ? selection->script : "";
}

FailureOr<qforge::TransformScript>
qforge::Session::loadStrategy(const StrategyOptions &options,
                              std::string &error) {
  std::string script = options.script;
  if (!script.empty() && options.row.empty() &&
      (options.int8Activations || options.packedWeights)) {
    error = std::string("--") +
            (options.int8Activations ? "int8-activations" : "packed-weights") +
            " picks a shipped strategy; with --script the script decides "
            "(drop one of them)";
    return failure();
  }
  if (script.empty()) {
    script = chooseStrategy(options, error);
    if (script.empty())
      return failure();
  }
  if (!llvm::sys::fs::exists(script)) {
    error = "transform script '" + script + "' not found";
    return failure();
  }
  if (auto loaded = loadedScripts.find(script); loaded != loadedScripts.end())
    return loaded->second;
  FailureOr<TransformScript> strategy =
      TransformScript::load(context.get(), script, &scriptLibrary);
  if (failed(strategy)) {
    error = "cannot load the transform script '" + script + "'";
    return failure();
  }
  loadedScripts.try_emplace(script, *strategy);
  return strategy;
}
