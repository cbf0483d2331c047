//===- Session.cpp - what every qforge tool sets up -----------------------===//

#include "Driver/Session.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"

#include <map>
#include <mutex>

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
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, context.get());
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

const qforge::TargetInfo *qforge::getTargetInfo(const TargetChoice &choice,
                                                std::string &error) {
  // One description per target a process compiles for (a tool compiles for
  // one; the fuzz driver and tests may ask for a few).
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, TargetInfo> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(choice.cpu, choice.attrs);
  auto it = cache.find(key);
  if (it != cache.end())
    return &it->second;
  std::optional<TargetInfo> info = TargetInfo::create(choice, error);
  if (!info)
    return nullptr;
  return &cache.emplace(key, std::move(*info)).first->second;
}

qforge::StrategyRequest
qforge::getStrategyRequest(const StrategyOptions &options) {
  StrategyRequest request;
  request.int8Activations = options.int8Activations;
  request.packedWeights = options.packedWeights;
  request.int4Weights = options.int4Weights;
  request.tokens = options.tokens;
  request.dynamicTokens = options.dynamicTokens;
  request.groups = options.groups;
  request.groupSize = options.groupSize;
  return request;
}

std::optional<qforge::StrategySelection>
qforge::selectStrategy(const StrategyOptions &options, std::string &error) {
  const TargetInfo *target = getTargetInfo(options.target, error);
  if (!target)
    return std::nullopt;
  const StrategyTable *table = StrategyTable::getActive(error);
  if (!table)
    return std::nullopt;
  if (!options.row.empty()) {
    std::optional<StrategySelection> forced =
        table->findRow(options.row, error);
    if (!forced)
      return std::nullopt;
    // The M = 1 path of a dynamic M keeps its own row, packed alike.
    if (!options.dynamicDecodePath)
      return forced;
  }
  return table->select(*target, getStrategyRequest(options), error);
}

LogicalResult qforge::applyRowFlags(StrategyOptions &options,
                                    std::string &error) {
  if (options.row.empty())
    return success();
  if (options.int8Activations || options.packedWeights) {
    error = "--strategy-row names a row of the table, whose family says the "
            "flags; drop --int8-activations and --packed-weights";
    return failure();
  }
  const StrategyTable *table = StrategyTable::getActive(error);
  if (!table)
    return failure();
  std::optional<StrategySelection> forced = table->findRow(options.row, error);
  if (!forced)
    return failure();
  options.int8Activations = forced->family->int8Activations.value_or(false);
  options.packedWeights = forced->family->packedWeights.value_or(false);
  return success();
}

void qforge::recordStrategyParams(func::FuncOp function,
                                  const StrategyOptions &options) {
  std::string error;
  const StrategyRow *row = nullptr;
  // A --script that is a table's script (without --strategy-row): the row
  // of that script for the target; otherwise the row the flags select.
  const TargetInfo *target = getTargetInfo(options.target, error);
  const StrategyTable *table = StrategyTable::getActive(error);
  if (!target || !table)
    return;
  if (!options.script.empty() && options.row.empty()) {
    StrategyRequest request = getStrategyRequest(options);
    row = table->findRowOfScript(options.script, target, &request);
  }
  std::optional<StrategySelection> selection;
  if (!row && (selection = selectStrategy(options, error)))
    row = selection->row;
  if (!row)
    return;
  Builder builder(function.getContext());
  SmallVector<NamedAttribute> params;
  for (const auto &[name, value] : row->params)
    params.push_back(
        builder.getNamedAttr(name, builder.getI64IntegerAttr(value)));
  function->setAttr(kStrategyParamsAttrName, builder.getDictionaryAttr(params));
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
  FailureOr<TransformScript> strategy =
      TransformScript::load(context.get(), script);
  if (failed(strategy))
    error = "cannot load the transform script '" + script + "'";
  return strategy;
}
