//===- SelectStrategy.cpp - the strategy of each quantized matmul ---------===//

#include "Driver/SelectStrategy.h"

#include "Abi/AbiAttributes.h"
#include "Analysis/ProducerForms.h"
#include "Rewrites/FactorTwoLevelContraction.h"
#include "Rewrites/TwoLevelAsSeedBytes.h"
#include "Rewrites/TwoLevelAsSeedInt4.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Path.h"

#include <map>
#include <mutex>

using namespace mlir;

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
  request.blocksInPlace = options.blocksInPlace;
  request.twoLevel = options.twoLevel;
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
    row = table->findRowOfScript(options.script, *target, request);
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

/// The value `value` views, through slices and reshapes.
static Value viewedValue(Value value) {
  while (isa_and_nonnull<tensor::ExtractSliceOp, tensor::ExpandShapeOp,
                         tensor::CollapseShapeOp>(value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  return value;
}

/// Whether a float input (scale, zero-point) of `contraction`'s
/// dequantization is decoded by a generic from the bytes its weights are
/// sliced from: a block format read in place (GGUF's q8_0: the f16 scale
/// joined from two bytes of each block).
static bool decodesParametersInPlace(linalg::GenericOp contraction) {
  auto isInteger = [](Value value) {
    return isa<IntegerType>(getElementTypeOrSelf(value.getType()));
  };
  for (Value input : contraction.getDpsInputs()) {
    auto dequant = input.getDefiningOp<linalg::GenericOp>();
    if (!dequant)
      continue;
    SmallVector<Value> weightSources;
    for (Value operand : dequant.getDpsInputs())
      if (isInteger(operand))
        weightSources.push_back(viewedValue(operand));
    if (weightSources.empty())
      continue;
    for (Value parameter : dequant.getDpsInputs()) {
      if (isInteger(parameter))
        continue;
      auto decoding = viewedValue(parameter).getDefiningOp<linalg::GenericOp>();
      if (decoding && llvm::any_of(decoding.getDpsInputs(), [&](Value bytes) {
            return isInteger(bytes) &&
                   llvm::is_contained(weightSources, viewedValue(bytes));
          }))
        return true;
    }
  }
  return false;
}

/// Whether `contraction`'s dequantization reads (through views) one of the
/// arguments `parent`'s qforge.int4_byte_pairs names: the attribute is the
/// function's, and a function may hold 8-bit matmuls beside a 4-bit one.
static bool readsInt4BytePairs(linalg::GenericOp contraction,
                               func::FuncOp parent) {
  auto paired = parent ? parent->getAttrOfType<DenseI64ArrayAttr>(
                             qforge::kInt4BytePairsAttrName)
                       : DenseI64ArrayAttr();
  if (!paired)
    return false;
  for (Value input : contraction.getDpsInputs()) {
    auto dequant = input.getDefiningOp<linalg::GenericOp>();
    if (!dequant)
      continue;
    for (Value operand : dequant.getDpsInputs()) {
      auto argument = dyn_cast<BlockArgument>(viewedValue(operand));
      if (argument && argument.getOwner()->isEntryBlock() &&
          argument.getOwner()->getParentOp() == parent &&
          llvm::is_contained(paired.asArrayRef(),
                             int64_t(argument.getArgNumber())))
        return true;
    }
  }
  return false;
}

unsigned qforge::prepareStrategyForms(ModuleOp module,
                                      const StrategyOptions &options) {
  // A --strategy-row says the flags through its family.
  bool packsWeights = options.packedWeights;
  if (!packsWeights && !options.row.empty()) {
    StrategyOptions flags = options;
    std::string error;
    packsWeights =
        succeeded(applyRowFlags(flags, error)) && flags.packedWeights;
  }
  if (!packsWeights || !options.script.empty())
    return 0;
  // q4_0 keeps its nibble pairs; what else has an offset c·s (q6_K) gets
  // its quants a byte each.
  unsigned rewritten = rewriteTwoLevelPairsAsSeedInt4(module);
  return rewritten + rewriteTwoLevelPairsAsSeedBytes(module);
}

llvm::SmallVector<qforge::MatmulSite>
qforge::findQuantizedMatmuls(ModuleOp module) {
  SmallVector<MatmulSite> sites;
  module.walk([&](linalg::GenericOp op) {
    std::optional<int64_t> tokens = countTokens(op);
    if (!tokens) {
      // A two-level contraction: M the product of its parallel dims other
      // than the weight rows (dynamic when one of them is).
      if (op.getNumReductionLoops() < 2)
        return;
      std::string reason;
      FailureOr<TwoLevelPlan> plan =
          analyzeTwoLevelContraction(op, /*lanes=*/1, reason,
                                     /*quantizeActivations=*/false,
                                     /*dividingLanes=*/false,
                                     /*laneGroups=*/0, /*dynamicTokens=*/true);
      if (failed(plan))
        return;
      MatmulSite site{op, 1};
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
        if (iterator != utils::IteratorType::parallel ||
            (int64_t)dim == plan->n)
          continue;
        if (ShapedType::isDynamic(ranges[dim])) {
          site.tokens = ShapedType::kDynamic;
          break;
        }
        site.tokens *= ranges[dim];
      }
      site.weightRows = ranges[plan->n];
      site.twoLevel = true;
      site.blocksInPlace = true;
      sites.push_back(site);
      return;
    }
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    MatmulSite site{op, *tokens};
    if (ranges.size() >= 5 && !ShapedType::isDynamic(ranges[3]) &&
        !ShapedType::isDynamic(ranges[4])) {
      site.groups = ranges[3];
      site.groupSize = ranges.size() == 6 ? 2 * ranges[4] : ranges[4];
      site.weightRows = ShapedType::isDynamic(ranges[2]) ? 0 : ranges[2];
    }
    auto parent = op->getParentOfType<func::FuncOp>();
    site.int4Weights = readsInt4BytePairs(op, parent);
    site.blocksInPlace = decodesParametersInPlace(op);
    sites.push_back(site);
  });
  return sites;
}

llvm::SmallVector<func::FuncOp>
qforge::findDynamicTokenFunctions(ModuleOp module) {
  llvm::SetVector<func::FuncOp> functions;
  for (const MatmulSite &site : findQuantizedMatmuls(module))
    if (ShapedType::isDynamic(site.tokens))
      if (auto parent = site.contraction->getParentOfType<func::FuncOp>())
        functions.insert(parent);
  return functions.takeVector();
}

qforge::StrategyOptions qforge::getSiteOptions(StrategyOptions options,
                                               const MatmulSite &site) {
  options.tokens = site.tokens;
  options.groups = site.groups;
  options.groupSize = site.groupSize;
  options.weightRows = site.weightRows;
  options.int4Weights = site.int4Weights;
  options.blocksInPlace = site.blocksInPlace;
  options.twoLevel = site.twoLevel;
  return options;
}

qforge::StrategyOptions
qforge::getDynamicDecodePathOptions(StrategyOptions siteOptions) {
  siteOptions.tokens = 1;
  siteOptions.dynamicDecodePath = true;
  if (siteOptions.script.empty())
    siteOptions.packedWeights =
        siteOptions.packedWeights || !siteOptions.blocksInPlace;
  return siteOptions;
}

std::optional<qforge::SiteStrategy>
qforge::selectSiteStrategy(const StrategyOptions &options,
                           const MatmulSite &site) {
  StrategyOptions siteOptions = getSiteOptions(options, site);
  std::string error;
  auto refuse = [&](StringRef what) -> std::optional<SiteStrategy> {
    linalg::GenericOp contraction = site.contraction;
    contraction.emitError() << what << error;
    return std::nullopt;
  };
  if (!ShapedType::isDynamic(site.tokens)) {
    std::optional<StrategySelection> only = selectStrategy(siteOptions, error);
    if (!only)
      return refuse("no strategy for this quantized matmul: ");
    return SiteStrategy{*only, std::nullopt};
  }
  // A dynamic M: chunks of the batched strategy (asked for as M = 16 that
  // packs as the decode does), and the M = 1 path, packed alike.
  StrategyOptions batchedOptions = siteOptions;
  batchedOptions.tokens = 16;
  batchedOptions.dynamicTokens = true;
  std::optional<StrategySelection> batched =
      selectStrategy(batchedOptions, error);
  if (!batched)
    return refuse("no batched strategy for this quantized matmul (its token "
                  "count is dynamic): ");
  StrategyOptions decodeOptions = getDynamicDecodePathOptions(siteOptions);
  std::optional<StrategySelection> decode =
      selectStrategy(decodeOptions, error);
  if (!decode)
    return refuse("no strategy for this quantized matmul at M = 1 (its token "
                  "count is dynamic): ");
  return SiteStrategy{*batched, *decode};
}

/// A table script as the table names it (a file of transforms/), a tuning
/// file's as its path.
static std::string scriptName(const qforge::StrategySelection &selection) {
  return selection.row->script;
}

DictionaryAttr qforge::getStrategyAttr(MLIRContext *context,
                                       const SiteStrategy &choice) {
  Builder builder(context);
  SmallVector<NamedAttribute> entries;
  const StrategySelection &main = choice.batchedOrOnly;
  entries.push_back(
      builder.getNamedAttr("family", builder.getStringAttr(main.family->name)));
  entries.push_back(
      builder.getNamedAttr("row", builder.getStringAttr(main.row->name)));
  entries.push_back(
      builder.getNamedAttr("script", builder.getStringAttr(scriptName(main))));
  entries.push_back(
      builder.getNamedAttr("why", builder.getStringAttr(main.why)));
  if (choice.decode) {
    entries.push_back(builder.getNamedAttr(
        "decode_row", builder.getStringAttr(choice.decode->getRowName())));
    entries.push_back(builder.getNamedAttr(
        "decode_script", builder.getStringAttr(scriptName(*choice.decode))));
    DynamicTokenPlan plan =
        main.row->dynamicTokens.value_or(DynamicTokenPlan());
    entries.push_back(builder.getNamedAttr(
        "token_tile", builder.getI64IntegerAttr(plan.tokenTile)));
    entries.push_back(builder.getNamedAttr(
        "chunk_tiles", builder.getDenseI64ArrayAttr(plan.chunkTiles)));
    entries.push_back(builder.getNamedAttr(
        "rows_by_decode", builder.getI64IntegerAttr(plan.rowsByDecode)));
    if (plan.rowsLeftChunks)
      entries.push_back(builder.getNamedAttr(
          "rows_left_chunks",
          builder.getDenseI64ArrayAttr(*plan.rowsLeftChunks)));
    if (plan.padNearlyFullChunks)
      entries.push_back(builder.getNamedAttr("pad_nearly_full_chunks",
                                             builder.getUnitAttr()));
  }
  return builder.getDictionaryAttr(entries);
}

void qforge::printSiteStrategy(llvm::raw_ostream &os, const MatmulSite &site,
                               const SiteStrategy &choice) {
  auto parent = site.contraction->getParentOfType<func::FuncOp>();
  linalg::GenericOp contraction = site.contraction;
  os << "@" << (parent ? parent.getSymName() : StringRef("?")) << " at ";
  // file:line:col, as diagnostics say it.
  if (auto fileLoc = dyn_cast<FileLineColLoc>(contraction.getLoc()))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else
    os << contraction.getLoc();
  os << ": M = ";
  if (ShapedType::isDynamic(site.tokens))
    os << "dynamic";
  else
    os << site.tokens;
  os << ", G = " << site.groups << ", group size " << site.groupSize
     << (site.int4Weights ? ", 4-bit weights" : "") << "\n";
  auto printOne = [&](StringRef what, const StrategySelection &selection) {
    os << "  " << what << selection.getRowName() << " ("
       << scriptName(selection) << ")\n    because " << selection.why << "\n";
    for (const std::string &skipped : selection.passedOver)
      os << "    not " << skipped << "\n";
  };
  printOne(choice.decode ? "chunks: " : "", choice.batchedOrOnly);
  if (choice.decode)
    printOne("M = 1:  ", *choice.decode);
}

namespace {
using namespace qforge;

struct SelectStrategyPass
    : public PassWrapper<SelectStrategyPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SelectStrategyPass)

  SelectStrategyPass() = default;
  SelectStrategyPass(const SelectStrategyPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "qforge-select-strategy"; }
  StringRef getDescription() const final {
    return "Records on each quantized matmul's contraction the strategy the "
           "table chooses for the target (qforge.strategy); no transform";
  }

  void runOnOperation() override {
    StrategyOptions options;
    options.target.cpu = cpu;
    options.target.attrs = attrs;
    options.int8Activations = int8Activations;
    options.packedWeights = packedWeights;
    options.row = row;
    std::string error;
    if (!qforge::getTargetInfo(options.target, error) ||
        failed(applyRowFlags(options, error))) {
      getOperation().emitError() << error;
      return signalPassFailure();
    }
    bool failed = false;
    prepareStrategyForms(getOperation(), options);
    SmallVector<MatmulSite> sites = findQuantizedMatmuls(getOperation());
    for (const MatmulSite &site : sites) {
      std::optional<SiteStrategy> choice = selectSiteStrategy(options, site);
      if (!choice) {
        failed = true;
        continue;
      }
      site.contraction->setAttr(kStrategyAttrName,
                                getStrategyAttr(&getContext(), *choice));
      // The row's numbers where a family script reads them: on the
      // function, when it holds no other quantized matmul.
      auto parent = site.contraction->getParentOfType<func::FuncOp>();
      if (parent &&
          llvm::count_if(sites, [&](const MatmulSite &other) {
            return other.contraction->getParentOfType<func::FuncOp>() == parent;
          }) == 1)
        recordStrategyParams(parent, getSiteOptions(options, site));
    }
    if (failed)
      signalPassFailure();
  }

  Option<std::string> cpu{*this, "mcpu",
                          llvm::cl::desc("target CPU ('native': the host)"),
                          llvm::cl::init("native")};
  Option<std::string> attrs{*this, "mattr",
                            llvm::cl::desc("extra target features"),
                            llvm::cl::init("")};
  Option<bool> int8Activations{*this, "int8-activations",
                               llvm::cl::desc("the int8-activation strategies"),
                               llvm::cl::init(false)};
  Option<std::string> row{
      *this, "row",
      llvm::cl::desc("the table's row 'family/row', whatever the target"),
      llvm::cl::init("")};
  Option<bool> packedWeights{*this, "packed-weights",
                             llvm::cl::desc("the packed strategies"),
                             llvm::cl::init(false)};
};
} // namespace

std::unique_ptr<Pass> qforge::createSelectStrategyPass() {
  return std::make_unique<SelectStrategyPass>();
}

void qforge::registerSelectStrategyPass() {
  PassRegistration<SelectStrategyPass>();
}
