//===- Strategies.cpp - which script runs on which quantized matmul -------===//

#include "Driver/Strategies.h"
#include "Driver/Abi.h"
#include "Driver/SelectStrategy.h"
#include "Driver/Session.h"
#include "Driver/Surgery.h"
#include "Driver/Target.h"
#include "Driver/TokenDispatch.h"

#include "Abi/AbiAttributes.h"
#include "Analysis/Divisors.h"
#include "Analysis/ProducerForms.h"
#include "Rewrites/SplitParameterPacking.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ThreadPool.h"

#include <functional>
#include <mutex>

using namespace mlir;

std::string qforge::StrategyPlan::describe() const {
  if (moduleScript)
    return moduleScript->getPath().str();
  llvm::SetVector<StringRef> paths;
  for (const auto &[name, script] : kernelScripts)
    paths.insert(script.getPath());
  return llvm::join(paths, ", ");
}

using qforge::MatmulSite;
using qforge::Outlined;
using qforge::outlineQuantizedMatmul;
using qforge::vectorizeElementwiseOps;

namespace {

/// A function moved into a module of its own, so that a script's matches
/// see only this matmul, and where it came from.
struct DetachedFunction {
  OwningOpRef<ModuleOp> scope;
  Operation *next;
  Block *parentBlock;
  SymbolTable::Visibility visibility;
};

DetachedFunction detach(func::FuncOp function) {
  DetachedFunction detached{ModuleOp::create(function.getLoc()),
                            function->getNextNode(), function->getBlock(),
                            function.getVisibility()};
  function->moveBefore(detached.scope->getBody(),
                       detached.scope->getBody()->end());
  // Public while the script runs, as a kernel is (split_parameter_packing
  // packs only a public function's parameters); private again after.
  function.setVisibility(SymbolTable::Visibility::Public);
  return detached;
}

/// Puts `function` back where `detach` took it from, with the functions a
/// script added beside it.
void reattach(func::FuncOp function, DetachedFunction &detached) {
  function.setVisibility(detached.visibility);
  for (Operation &op : llvm::make_early_inc_range(*detached.scope->getBody())) {
    if (detached.next)
      op.moveBefore(detached.next);
    else
      op.moveBefore(detached.parentBlock, detached.parentBlock->end());
  }
}

/// A strategy for an outlined matmul, applied with every other site's once
/// all are outlined and specialized (applyScripts).
struct ScriptJob {
  func::FuncOp function;
  const qforge::TransformScript *script;
  /// Emits, located at the matmul, which strategy failed on it (if set).
  std::function<void()> reportFailure;
};

/// Collects the diagnostics each job's thread emits, apart per job, to be
/// emitted in job order after the parallel section: as one job after the
/// other would have emitted them, up to the first that failed.
class JobDiagnostics {
public:
  JobDiagnostics(MLIRContext *context, size_t jobs)
      : context(context), byJob(jobs) {
    id = context->getDiagEngine().registerHandler([this](Diagnostic &diag) {
      if (currentJob < 0)
        return failure();
      std::lock_guard<std::mutex> lock(mutex);
      byJob[currentJob].push_back(std::move(diag));
      return success();
    });
  }
  ~JobDiagnostics() { context->getDiagEngine().eraseHandler(id); }
  /// The job the calling thread runs (-1: none).
  static void setJob(int64_t job) { currentJob = job; }
  /// Emits jobs [0, end)'s diagnostics, in order; called where no job runs,
  /// so that the handler passes them on.
  void emitUpTo(size_t end) {
    for (size_t job = 0; job < end; ++job)
      for (Diagnostic &diag : byJob[job])
        context->getDiagEngine().emit(std::move(diag));
    byJob.clear();
  }

private:
  MLIRContext *context;
  DiagnosticEngine::HandlerID id;
  std::mutex mutex;
  std::vector<std::vector<Diagnostic>> byJob;
  static thread_local int64_t currentJob;
};
thread_local int64_t JobDiagnostics::currentJob = -1;

/// Applies `entry` of each job's script to its function, each in a module
/// of its own (so that a script's matches see only this matmul), the
/// functions in parallel (a
/// dynamic-M layer's 21 kernels: their strategies, then what their scripts
/// do after bufferization, 0.31 s on one thread). The functions
/// return to their places, with the functions each script added after its
/// own, as one application after the other leaves them; diagnostics come
/// in job order, up to the first job that failed, whose report and error
/// are then the result's.
LogicalResult applyScripts(MLIRContext *context,
                           MutableArrayRef<ScriptJob> jobs, StringRef entry,
                           std::string &error) {
  std::vector<DetachedFunction> detached;
  detached.reserve(jobs.size());
  for (ScriptJob &job : jobs)
    detached.push_back(detach(job.function));
  std::vector<char> failedJobs(jobs.size(), 0);
  {
    JobDiagnostics diagnostics(context, jobs.size());
    auto run = [&](size_t index) {
      JobDiagnostics::setJob(index);
      failedJobs[index] =
          failed(jobs[index].script->apply(*detached[index].scope, entry));
      JobDiagnostics::setJob(-1);
    };
    // The context's threads, each job's diagnostics emitted on the thread
    // that runs it (mlir::parallelFor would gather them all on this one).
    if (context->isMultithreadingEnabled() && jobs.size() > 1) {
      llvm::ThreadPoolTaskGroup group(context->getThreadPool());
      for (size_t index = 0; index < jobs.size(); ++index)
        group.async([&run, index] { run(index); });
      group.wait();
    } else {
      for (size_t index = 0; index < jobs.size(); ++index)
        run(index);
    }
    size_t firstFailed = llvm::find(failedJobs, 1) - failedJobs.begin();
    diagnostics.emitUpTo(std::min(firstFailed + 1, jobs.size()));
  }
  // Back in the reverse order of their removal: the node each was before
  // is then in place again.
  for (size_t index = jobs.size(); index-- > 0;)
    reattach(jobs[index].function, detached[index]);
  for (auto [job, jobFailed] : llvm::zip(jobs, failedJobs))
    if (jobFailed) {
      if (job.reportFailure)
        job.reportFailure();
      error = "the transform script '" + job.script->getPath().str() +
              "' failed (see above)";
      return failure();
    }
  return success();
}

/// Whether two pack functions pack alike: the same types and, op by op,
/// the same body (structurally; locations and the functions' names aside).
bool packAlike(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

/// Module attributes by which a user's batched script (--script) states its
/// own chunk plan, over the defaults (docs/scripts.md); the shipped
/// strategies' plans are their rows' in the strategy table.
constexpr llvm::StringLiteral kTokenTileAttr = "qforge.token_tile";
constexpr llvm::StringLiteral kChunkTilesAttr = "qforge.chunk_tiles";
constexpr llvm::StringLiteral kRowsByDecodeAttr = "qforge.rows_by_decode";
constexpr llvm::StringLiteral kRowsLeftChunksAttr = "qforge.rows_left_chunks";
constexpr llvm::StringLiteral kPadNearlyFullChunksAttr =
    "qforge.pad_nearly_full_chunks";

/// `numbers` with what the script `batched` states over them.
qforge::DynamicTokenPlan
withScriptAttributes(qforge::DynamicTokenPlan numbers,
                     const qforge::TransformScript &batched) {
  if (std::optional<int64_t> tile = batched.getIntegerAttribute(kTokenTileAttr))
    numbers.tokenTile = *tile;
  if (std::optional<SmallVector<int64_t>> tiles =
          batched.getIntegerArrayAttribute(kChunkTilesAttr))
    numbers.chunkTiles = *tiles;
  if (std::optional<int64_t> rows =
          batched.getIntegerAttribute(kRowsByDecodeAttr))
    numbers.rowsByDecode = *rows;
  if (std::optional<SmallVector<int64_t>> listed =
          batched.getIntegerArrayAttribute(kRowsLeftChunksAttr))
    numbers.rowsLeftChunks = *listed;
  if (batched.hasAttribute(kPadNearlyFullChunksAttr))
    numbers.padNearlyFullChunks = true;
  return numbers;
}

/// How a dynamic token count is cut into row chunks.
struct TokenChunks {
  /// Whole chunks, the largest first (the last is the smallest).
  SmallVector<int64_t> sizes;
  /// Smaller chunks, only for the rows the whole ones leave.
  SmallVector<int64_t> remainderSizes;
  /// At most this many rows left go one at a time through the M = 1 path.
  int64_t rowsBySingle;
  /// Rows left that nearly fill a larger chunk go padded into it.
  bool padNearlyFullChunks;
};

/// The chunks for the batched strategy `batched` from `numbers` (its table
/// row's, with a script's attributes over them); a diagnostic at `loc` when
/// they are out of range.
FailureOr<TokenChunks> planTokenChunks(const qforge::DynamicTokenPlan &numbers,
                                       const qforge::TransformScript &batched,
                                       bool int8Activations, Location loc) {
  int64_t tokenTile = std::max<int64_t>(1, numbers.tokenTile);
  TokenChunks plan;
  plan.rowsBySingle = numbers.rowsByDecode;
  // Measured on Intel only, with chunks of 32 in tiles of 4 (the Intel
  // 64-row rows set it): a chunk whose tiles pad (6 x 6 for 32 rows)
  // would compute more rows for the one read of the weights it saves.
  plan.padNearlyFullChunks = numbers.padNearlyFullChunks;
  if (plan.rowsBySingle < 0) {
    emitError(loc) << "the batched strategy '" << batched.getPath() << "' sets "
                   << kRowsByDecodeAttr << " = " << plan.rowsBySingle
                   << "; it must be at least 0";
    return failure();
  }
  // Chunks of at most 2^20 rows (a token count is at most 2^24).
  constexpr int64_t kMostChunkRows = int64_t(1) << 20;
  if (numbers.chunkTiles.empty() ||
      llvm::any_of(llvm::enumerate(numbers.chunkTiles), [&](auto tiles) {
        return tiles.value() < 1 ||
               tiles.value() > kMostChunkRows / tokenTile ||
               (tiles.index() > 0 &&
                tiles.value() >= numbers.chunkTiles[tiles.index() - 1]);
      })) {
    emitError(loc) << "the batched strategy '" << batched.getPath() << "' sets "
                   << kChunkTilesAttr
                   << "; it must list decreasing tile counts of at least 1, "
                      "chunks of at most "
                   << kMostChunkRows << " rows";
    return failure();
  }
  int64_t smallest = tokenTile;
  while (int8Activations && smallest <= 8)
    smallest += tokenTile;
  // Whole chunks of the row's tile counts (by default 16 and 4 tiles), then
  // the smallest. Int8 activations' chunks keep more than 8 rows.
  // (A chunk of 1 row would be the decode path's specialization again.)
  for (int64_t tiles : numbers.chunkTiles)
    if (tiles * tokenTile >= smallest && tiles * tokenTile > 1)
      plan.sizes.push_back(tiles * tokenTile);
  if ((plan.sizes.empty() || plan.sizes.back() > smallest) && smallest > 1)
    plan.sizes.push_back(smallest);
  if (plan.sizes.empty()) {
    emitError(loc) << "the batched strategy '" << batched.getPath()
                   << "' has chunks of one row only (a token tile of 1, "
                      "chunks of 1 tile): that is the M = 1 path";
    return failure();
  }
  // The rows the chunks leave, when more than go one at a time, padded into
  // the script's smaller chunks for them, by default half the smallest, a
  // quarter, ... while that is more than those rows: M = 3 computes 4 rows,
  // not 8 (a chunk reads all weights once, whatever its rows; with few
  // rows, that is its cost). A script lists its own when one token tile
  // of its pack beats two smaller ones (prefill-f32.mlir: 6).
  // Not by default with int8 activations, whose chunks keep more than 8
  // rows (above): the rows left go padded into the smallest chunk.
  if (const std::optional<SmallVector<int64_t>> &listed =
          numbers.rowsLeftChunks) {
    for (int64_t size : *listed) {
      if (size < 2 || size >= plan.sizes.back()) {
        emitError(loc) << "the batched strategy '" << batched.getPath()
                       << "' lists " << size << " in " << kRowsLeftChunksAttr
                       << "; its sizes must be at least 2 and less than the "
                          "smallest chunk ("
                       << plan.sizes.back() << ")";
        return failure();
      }
      if (size > plan.rowsBySingle &&
          !llvm::is_contained(plan.remainderSizes, size))
        plan.remainderSizes.push_back(size);
    }
  } else if (!int8Activations) {
    for (int64_t size = plan.sizes.back() / 2;
         size > std::max<int64_t>(plan.rowsBySingle, 1); size /= 2)
      plan.remainderSizes.push_back(size);
  }
  return plan;
}

/// The table row whose chunk plan a dynamic M's dispatch reads: the chosen
/// row's, or with --script the row of that script when it is a shipped one
/// (null: a user's script, whose attributes go over the defaults).
const qforge::StrategyRow *
findChunkPlanRow(const qforge::StrategyOptions &batchedOptions) {
  std::string ignored;
  if (batchedOptions.script.empty() || !batchedOptions.row.empty()) {
    std::optional<qforge::StrategySelection> selection =
        qforge::selectStrategy(batchedOptions, ignored);
    return selection ? selection->row : nullptr;
  }
  const qforge::StrategyTable *table =
      qforge::StrategyTable::getActive(ignored);
  const qforge::TargetInfo *target =
      qforge::getTargetInfo(batchedOptions.target, ignored);
  if (!table || !target)
    return nullptr;
  qforge::StrategyRequest request = qforge::getStrategyRequest(batchedOptions);
  return table->findRowOfScript(batchedOptions.script, *target, request);
}

/// What every path of one dynamic-M site shares.
struct DynamicSite {
  qforge::Session &session;
  func::FuncOp dispatcher;
  std::string name;
  qforge::StrategyOptions options, batchedOptions;
  qforge::TransformScript batched;
  SmallVector<bool> tokenCountArguments;
  Location loc;
};

/// The specialization of `site` to `tokens` rows, its strategy (the batched
/// script for a chunk, the M = 1 path's own, packed as the batched one, for
/// one row) to apply in `jobs`.
FailureOr<qforge::TokenPath>
prepareTokenPath(DynamicSite &site, int64_t tokens, qforge::StrategyPlan &plan,
                 llvm::StringMap<qforge::TransformScript> &scripts,
                 SmallVectorImpl<ScriptJob> &jobs, std::string &error) {
  std::string specName = (site.name + "_m" + Twine(tokens)).str();
  FailureOr<func::FuncOp> specialized = qforge::specializeTokenCount(
      site.dispatcher, tokens, specName, site.tokenCountArguments);
  if (failed(specialized)) {
    error = "the quantized matmul's token count cannot be dispatched on";
    return failure();
  }
  qforge::StrategyOptions decodeOptions =
      qforge::getDynamicDecodePathOptions(site.options);
  std::string why;
  FailureOr<qforge::TransformScript> loaded =
      tokens == 1 ? site.session.loadStrategy(decodeOptions, why)
                  : site.batched;
  if (failed(loaded)) {
    emitError(site.loc) << "no strategy for this quantized matmul at M = "
                        << tokens << " (its token count is dynamic): " << why;
    error = "no strategy for a quantized matmul of the module";
    return failure();
  }
  const qforge::TransformScript &script =
      scripts.try_emplace(loaded->getPath(), *loaded).first->second;
  // A user's --script is one strategy at every M: the batched row's
  // numbers throughout.
  qforge::recordStrategyParams(*specialized,
                               tokens == 1 && site.options.script.empty()
                                   ? decodeOptions
                                   : site.batchedOptions);
  Location loc = site.loc;
  std::string path = script.getPath().str();
  jobs.push_back({*specialized, &script, [loc, path, tokens, specName] {
                    emitError(loc)
                        << "the strategy '" << path
                        << "' failed on this quantized matmul at M = " << tokens
                        << " (outlined as @" << specName << ")";
                  }});
  plan.kernelScripts.emplace_back(specName, script);
  return qforge::TokenPath{tokens, *specialized};
}

/// One packing for every path, or none: the paths' pack functions must pack
/// alike; the first becomes the dispatcher's, whose packed arguments take
/// the paths' types in `argumentTypes`.
LogicalResult unifyPackings(DynamicSite &site,
                            ArrayRef<qforge::TokenPath> paths,
                            SmallVectorImpl<Type> &argumentTypes) {
  SmallVector<func::FuncOp> packs;
  for (const qforge::TokenPath &path : paths)
    if (func::FuncOp pack = qforge::getPackWeightsFunction(path.function))
      packs.push_back(pack);
  if (packs.empty())
    return success();
  if (packs.size() != paths.size() ||
      !llvm::all_of(packs, [&](func::FuncOp pack) {
        return packAlike(pack, packs.front());
      }))
    return emitError(site.loc)
           << "the strategies for M = 1 and for batches of this quantized "
              "matmul pack its parameters differently; a dynamic token count "
              "needs one packing for both (pass a --script that packs alike "
              "at every M)";
  // The paths take the packed tensors, and any further ones after the raw
  // arguments (qforge::getPackedSignature): so does the dispatcher.
  qforge::PackedSignature signature = qforge::getPackedSignature(
      packs.front()
          ->getAttrOfType<DenseI64ArrayAttr>(qforge::kPrepackedArgumentsAttr)
          .asArrayRef(),
      argumentTypes.size());
  TypeRange pathTypes = func::FuncOp(paths.front().function).getArgumentTypes();
  argumentTypes.resize(pathTypes.size());
  for (int64_t kernelIndex : signature.kernelIndices)
    argumentTypes[kernelIndex] = pathTypes[kernelIndex];
  std::string packName = qforge::getPackWeightsName(site.name);
  packs.front().setSymName(packName);
  for (func::FuncOp pack : llvm::drop_begin(packs))
    pack.erase();
  for (const qforge::TokenPath &path : paths)
    path.function->removeAttr(qforge::kPackWeightsAttr);
  site.dispatcher->setAttr(
      qforge::kPackWeightsAttr,
      FlatSymbolRefAttr::get(site.dispatcher.getContext(), packName));
  return success();
}

/// A dynamic-M site between its preparation and its dispatch.
struct PendingDynamicSite {
  Outlined outlined;
  qforge::TokenDims dims;
  TokenChunks chunking;
  DynamicSite site;
  SmallVector<qforge::TokenPath> paths;
};

/// A quantized matmul whose token count M is known only at run time
/// (docs/scripts.md), outlined as `outlined`: specialized to M = 1 (the
/// decode path, packed like the batched one) and to batched chunks of whole
/// token tiles, each specialization's strategy for its M put in `jobs`;
/// once they ran, finishDynamicTokenSite makes the outlined function
/// dispatch row chunks to them (inlined into each caller once its packing
/// is lifted, applyStrategies).
FailureOr<std::unique_ptr<PendingDynamicSite>>
prepareDynamicTokenSite(qforge::Session &session, Outlined outlined,
                        Location loc, qforge::StrategyOptions options,
                        qforge::StrategyPlan &plan,
                        llvm::StringMap<qforge::TransformScript> &scripts,
                        SmallVectorImpl<ScriptJob> &jobs, std::string &error) {
  StringRef name = outlined.function.getSymName();
  FailureOr<qforge::TokenDims> dims = qforge::findTokenDims(outlined.function);
  if (failed(dims)) {
    error = "the quantized matmul's token count cannot be dispatched on";
    return failure();
  }
  // The chunks' batched strategy (asked for as M = 16), its row's chunk
  // plan with a script's attributes over it (planTokenChunks).
  qforge::StrategyOptions batchedOptions = options;
  batchedOptions.tokens = 16;
  batchedOptions.dynamicTokens = true;
  std::string why;
  FailureOr<qforge::TransformScript> batched =
      session.loadStrategy(batchedOptions, why);
  if (failed(batched)) {
    emitError(loc) << "no batched strategy for this quantized matmul (its "
                      "token count is dynamic): "
                   << why;
    error = "no strategy for a quantized matmul of the module";
    return failure();
  }
  qforge::DynamicTokenPlan numbers;
  if (const qforge::StrategyRow *row = findChunkPlanRow(batchedOptions))
    numbers = row->dynamicTokens.value_or(numbers);
  FailureOr<TokenChunks> chunking =
      planTokenChunks(withScriptAttributes(numbers, *batched), *batched,
                      options.int8Activations, loc);
  if (failed(chunking)) {
    error = "no strategy for a quantized matmul of the module";
    return failure();
  }
  auto pending = std::make_unique<PendingDynamicSite>(PendingDynamicSite{
      outlined,
      *dims,
      *chunking,
      DynamicSite{session, outlined.function, name.str(), options,
                  batchedOptions, *batched,
                  qforge::findTokenCountArguments(outlined.call), loc},
      {}});
  SmallVector<int64_t> allSizes = {1};
  llvm::append_range(allSizes, chunking->sizes);
  llvm::append_range(allSizes, chunking->remainderSizes);
  for (int64_t tokens : allSizes) {
    FailureOr<qforge::TokenPath> path =
        prepareTokenPath(pending->site, tokens, plan, scripts, jobs, error);
    if (failed(path))
      return failure();
    pending->paths.push_back(*path);
  }
  return pending;
}

/// The dispatch of a prepared dynamic-M site over its paths, whose
/// strategies are applied.
LogicalResult finishDynamicTokenSite(PendingDynamicSite &pending,
                                     std::string &error) {
  Outlined &outlined = pending.outlined;
  DynamicSite &site = pending.site;
  SmallVector<qforge::TokenPath> &paths = pending.paths;
  const TokenChunks &chunking = pending.chunking;
  SmallVector<Type> argumentTypes(outlined.function.getArgumentTypes());
  if (failed(unifyPackings(site, paths, argumentTypes))) {
    error = "no strategy for a quantized matmul of the module";
    return failure();
  }
  SmallVector<qforge::TokenPath> chunks, remainders;
  for (const qforge::TokenPath &path : llvm::drop_begin(paths))
    (llvm::is_contained(chunking.remainderSizes, path.tokens) ? remainders
                                                              : chunks)
        .push_back(path);
  qforge::buildTokenDispatch(outlined.function, pending.dims, chunks,
                             remainders, paths.front(), chunking.rowsBySingle,
                             chunking.padNearlyFullChunks, argumentTypes,
                             /*intoDestinations=*/true);
  return success();
}

} // namespace

namespace {
/// Whether `site` is the module's only computation (besides fills): the
/// script then sees the module. A matmul with other work around it -- f16
/// conversions, a transposed parameter, a bias add -- is outlined like one
/// of several, so that the rest is vectorized.
bool isAlone(ModuleOp module, const MatmulSite &site) {
  linalg::GenericOp contraction = site.contraction;
  llvm::SmallPtrSet<Operation *, 8> own = {
      contraction.getDpsInputOperand(0)->get().getDefiningOp(),
      contraction.getDpsInputOperand(1)->get().getDefiningOp()};
  // A two-level contraction's dequantization reads generics that decode
  // its sub-blocks' scales and offsets from the blocks (and those, the
  // super-block's f16s): all of them are the matmul's.
  if (site.twoLevel) {
    SmallVector<Operation *> worklist(own.begin(), own.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!op)
        continue;
      for (Value operand : op->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          if (own.insert(producer).second)
            worklist.push_back(producer);
    }
  }
  WalkResult walk = module.walk([&](linalg::LinalgOp op) {
    if (op == contraction || own.contains(op) || isa<linalg::FillOp>(op))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Refuses a kernel with dynamic shapes but no quantized matmul whose token
/// count is dynamic, at the first dynamic argument (or the function).
LogicalResult checkDynamicShapes(func::FuncOp kernel, bool dynamicTokens,
                                 std::string &error) {
  FunctionType kernelType = kernel.getFunctionType();
  if (dynamicTokens ||
      (llvm::none_of(kernelType.getInputs(), qforge::hasDynamicShape) &&
       llvm::none_of(kernelType.getResults(), qforge::hasDynamicShape)))
    return success();
  Location loc = kernel.getLoc();
  for (BlockArgument argument : kernel.getArguments())
    if (qforge::hasDynamicShape(argument.getType())) {
      loc = argument.getLoc();
      break;
    }
  emitError(loc) << "@" << kernel.getSymName()
                 << " has dynamic shapes but no quantized matmul with a "
                    "dynamic token count: qforge compiles static shapes, "
                    "and the token count M of quantized matmuls";
  error = "nothing to compile a dynamic shape for";
  return failure();
}

/// One script on the whole module (one matmul alone, or none recognised).
FailureOr<qforge::StrategyPlan>
applyModuleScript(qforge::Session &session, ModuleOp module,
                  func::FuncOp kernel, ArrayRef<MatmulSite> sites,
                  qforge::StrategyOptions options, std::string &error) {
  if (sites.size() == 1)
    options = qforge::getSiteOptions(options, sites.front());
  // The kernel's weights, as before the site's function was known.
  options.int4Weights = kernel->hasAttr(qforge::kInt4BytePairsAttrName);
  FailureOr<qforge::TransformScript> script =
      session.loadStrategy(options, error);
  if (failed(script)) {
    // Located at the matmul, before any script step (the tool repeats why).
    if (!sites.empty() && options.script.empty()) {
      linalg::GenericOp contraction = sites.front().contraction;
      emitError(contraction.getLoc())
          << "no strategy for this quantized matmul of @"
          << contraction->getParentOfType<func::FuncOp>().getSymName() << ": "
          << error;
    }
    return failure();
  }
  // On the matmul's function (none recognised: on the kernel, where the
  // script's own match then says what it did not find).
  qforge::recordStrategyParams(
      sites.empty()
          ? kernel
          : sites.front().contraction->getParentOfType<func::FuncOp>(),
      options);
  if (failed(script->apply(module))) {
    // Nothing recognised before the script: say where in the user's file,
    // beside the script's own diagnostic (a form the script's first step
    // simplifies is recognised only then, so this cannot refuse earlier).
    if (sites.empty() && options.script.empty()) {
      Operation *where = kernel;
      kernel.walk([&](linalg::LinalgOp op) {
        if (op.getNumReductionLoops() >= 1 && where == kernel)
          where = op;
      });
      where->emitError()
          << "qforge recognises no group-quantized matmul in @"
          << kernel.getSymName()
          << (where == kernel.getOperation() ? "" : " (here: a reduction)")
          << ": it reads a dequantization linalg.generic (integer weights "
             "extended to float, a zero-point subtracted, a scale per group) "
             "feeding a contraction over groups and their elements "
             "(docs/forms.md lists the forms)";
    }
    error = "the transform script '" + script->getPath().str() +
            "' failed (see above)";
    return failure();
  }
  qforge::StrategyPlan plan;
  plan.moduleScript = *script;
  return plan;
}

/// A quantized matmul of static M among several, outlined as `outlined`:
/// its strategy to apply there, in `jobs`.
LogicalResult
prepareStaticSite(qforge::Session &session, Outlined outlined, Location loc,
                  size_t siteCount, const qforge::StrategyOptions &siteOptions,
                  qforge::StrategyPlan &plan,
                  llvm::StringMap<qforge::TransformScript> &scripts,
                  SmallVectorImpl<ScriptJob> &jobs, std::string &error) {
  std::string name = outlined.function.getSymName().str();
  std::string why;
  FailureOr<qforge::TransformScript> loaded =
      session.loadStrategy(siteOptions, why);
  if (failed(loaded)) {
    emitError(loc) << "no strategy for this quantized matmul (one of "
                   << siteCount << " in the module): " << why;
    error = "no strategy for a quantized matmul of the module";
    return failure();
  }
  const qforge::TransformScript &script =
      scripts.try_emplace(loaded->getPath(), *loaded).first->second;
  qforge::recordStrategyParams(outlined.function, siteOptions);
  std::string path = script.getPath().str();
  jobs.push_back({outlined.function, &script, [loc, path, name] {
                    emitError(loc)
                        << "the strategy '" << path
                        << "' failed on this quantized matmul (outlined as @"
                        << name << ")";
                  }});
  plan.kernelScripts.emplace_back(name, script);
  return success();
}

/// A quantized matmul compiled once, and every call of it: the sites
/// identical to the first (the same outlined function and strategy
/// request: q, k, v and o of a decoder layer) call what it compiled.
struct CompiledSite {
  /// The outlined function before its strategy, to recognise the others.
  OwningOpRef<func::FuncOp> pristine;
  qforge::StrategyRequest request;
  /// The compiled function (a dynamic M's: its dispatcher, which each call
  /// passes its result's destination).
  func::FuncOp function;
  bool dynamicTokens;
  std::optional<qforge::ParameterPacking> packing;
  SmallVector<func::CallOp> calls;
  /// A dynamic M's paths, to dispatch over once their strategies ran.
  std::unique_ptr<PendingDynamicSite> pending = nullptr;
};

/// Each call of a compiled site takes its packed parameters from its
/// caller's <f>_pack_weights; a dynamic M's dispatch moves into it.
LogicalResult finishCalls(CompiledSite &site, std::string &error) {
  for (func::CallOp call : site.calls) {
    if (site.packing &&
        failed(qforge::liftParameterPacking(*site.packing, call))) {
      error = "the weights of a quantized matmul cannot be packed ahead of "
              "calls (see above)";
      return failure();
    }
    // A dynamic M's dispatcher writes into what each call passes it: its
    // result's rows are known only at run time, so it cannot create them
    // and hand them back (only the public kernel's result is passed in,
    // docs/abi.md). So it stays one function, called from every site
    // (inlined at each, it was most of a dynamic-M layer's machine code).
    if (site.dynamicTokens)
      qforge::passDestinations(call, site.pending->dims);
  }
  return success();
}
/// A function of the module other than `kernel` that now takes packed
/// weights (a model's private layer function, whose matmuls' packings were
/// lifted into it) passes its packing on to each caller in turn, up to
/// the kernel: the model's `<kernel>_pack_weights` packs every layer's
/// weights once, and each call passes packed tensors.
LogicalResult liftPackingToCallers(ModuleOp module, func::FuncOp kernel,
                                   std::string &error) {
  auto pending = [&](func::FuncOp function) {
    return function != kernel && !function.isExternal() &&
           qforge::getPackWeightsFunction(function);
  };
  // Callees first: a function passes its packing on once every function
  // it calls has passed theirs into it.
  auto callsPending = [&](func::FuncOp function) {
    return function
        .walk([&](func::CallOp call) {
          auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
          return callee && callee != function && pending(callee)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  while (true) {
    func::FuncOp function;
    bool any = false;
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (!pending(candidate))
        continue;
      any = true;
      if (!callsPending(candidate)) {
        function = candidate;
        break;
      }
    }
    if (!any)
      return success();
    if (!function) {
      error = "the functions that take packed weights call each other in a "
              "cycle; their packing cannot be lifted to @" +
              kernel.getSymName().str();
      return failure();
    }
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    SmallVector<func::CallOp> calls;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (!call) {
        use.getUser()->emitError()
            << "refers to @" << function.getSymName()
            << ", whose weights a strategy packs ahead of calls; only calls "
               "can pass packed weights";
        error = "the weights of a quantized matmul cannot be packed ahead of "
                "calls (see above)";
        return failure();
      }
      calls.push_back(call);
    }
    std::optional<qforge::ParameterPacking> packing =
        qforge::takeParameterPacking(function);
    for (func::CallOp call : calls) {
      if (failed(qforge::liftParameterPacking(*packing, call))) {
        error = "the weights of a quantized matmul cannot be packed ahead of "
                "calls (see above)";
        return failure();
      }
    }
  }
}
} // namespace

bool qforge::compilesSitesApart(ModuleOp module, ArrayRef<MatmulSite> sites) {
  bool dynamicTokens = llvm::any_of(sites, [](const MatmulSite &site) {
    return ShapedType::isDynamic(site.tokens);
  });
  return !sites.empty() &&
         (sites.size() > 1 || dynamicTokens || !isAlone(module, sites.front()));
}

FailureOr<qforge::StrategyPlan>
qforge::applyStrategies(Session &session, ModuleOp module, func::FuncOp kernel,
                        StrategyOptions options, std::string &error) {
  if (failed(applyRowFlags(options, error)))
    return failure();
  prepareStrategyForms(module, options);
  SmallVector<MatmulSite> sites = qforge::findQuantizedMatmuls(module);
  options.int4Weights = kernel->hasAttr(kInt4BytePairsAttrName);
  bool dynamicTokens = llvm::any_of(sites, [](MatmulSite site) {
    return ShapedType::isDynamic(site.tokens);
  });
  if (failed(checkDynamicShapes(kernel, dynamicTokens, error)))
    return failure();
  if (!compilesSitesApart(module, sites))
    return applyModuleScript(session, module, kernel, sites, options, error);

  // Several: each its own function and the script its M and weights call
  // for. A strategy that packs the weights (--packed-weights, 4-bit
  // weights, prefill) packs them once for the module's function: the
  // matmul's pack function is lifted into `<f>_pack_weights`.
  StrategyPlan plan;
  llvm::StringMap<TransformScript> scripts;
  llvm::StringMap<unsigned> countByParent;
  std::vector<CompiledSite> compiled;
  // Every site outlined and specialized first, their strategies then
  // applied together, in parallel (applyScripts), then the dispatch of each
  // dynamic M over its paths.
  SmallVector<ScriptJob> jobs;
  for (MatmulSite site : sites) {
    auto parent = site.contraction->getParentOfType<func::FuncOp>();
    StrategyOptions siteOptions = qforge::getSiteOptions(options, site);
    unsigned index = countByParent[parent.getSymName()]++;
    std::string name = (parent.getSymName() + "_qmm" + Twine(index)).str();
    Location loc = site.contraction.getLoc();
    Outlined outlined = outlineQuantizedMatmul(site.contraction, name);
    StrategyRequest request = getStrategyRequest(siteOptions);
    auto same = llvm::find_if(compiled, [&](const CompiledSite &other) {
      return other.request == request &&
             qforge::areIdenticalFunctions(*other.pristine, outlined.function);
    });
    if (same != compiled.end()) {
      outlined.call.setCallee(same->function.getSymName());
      outlined.function.erase();
      same->calls.push_back(outlined.call);
      continue;
    }
    CompiledSite record{
        outlined.function.clone(),          request,      outlined.function,
        ShapedType::isDynamic(site.tokens), std::nullopt, {outlined.call}};
    if (record.dynamicTokens) {
      FailureOr<std::unique_ptr<PendingDynamicSite>> pending =
          prepareDynamicTokenSite(session, outlined, loc, siteOptions, plan,
                                  scripts, jobs, error);
      if (failed(pending))
        return failure();
      record.pending = std::move(*pending);
    } else if (failed(prepareStaticSite(session, outlined, loc, sites.size(),
                                        siteOptions, plan, scripts, jobs,
                                        error))) {
      return failure();
    }
    compiled.push_back(std::move(record));
  }
  if (failed(applyScripts(module.getContext(), jobs,
                          TransformScript::kMainEntry, error)))
    return failure();
  for (CompiledSite &record : compiled) {
    if (record.pending &&
        failed(finishDynamicTokenSite(*record.pending, error)))
      return failure();
    record.packing = qforge::takeParameterPacking(record.function);
  }
  for (CompiledSite &site : compiled)
    if (failed(finishCalls(site, error)))
      return failure();
  if (failed(liftPackingToCallers(module, kernel, error)))
    return failure();
  // What is not a kernel -- the functions around the matmuls (their
  // elementwise ops, the token dispatch) and the pack functions, which pack
  // once, ahead of calls -- is optimized by LLVM for size: its loops are
  // vectorized here, or copies, or run once; LLVM's unrolling and
  // vectorization of the dispatch's copies made the public function of a
  // dynamic-M layer 50,000 instructions, two thirds of its compile time
  // (docs/measurements/2026-12-05-zen5-compile-time.md).
  Builder builder(module.getContext());
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function.isExternal() ||
        llvm::any_of(plan.kernelScripts, [&](const auto &entry) {
          return entry.first == function.getSymName();
        }))
      continue;
    // Glue without loops or vectors (a model's chain of layer calls) is
    // not optimized at all; the rest around the kernels for size.
    bool glueOnly =
        !function.getBody()
             .walk([](Operation *op) {
               bool vectors = llvm::any_of(op->getResultTypes(), [](Type type) {
                 return isa<VectorType>(type);
               });
               return op->getNumRegions() || vectors ? WalkResult::interrupt()
                                                     : WalkResult::advance();
             })
             .wasInterrupted();
    function->setAttr(glueOnly ? kNotOptimizedAttr : kOptimizeForSizeAttr,
                      builder.getUnitAttr());
    if (!function->hasAttr(kPrepackedArgumentsAttr) &&
        !qforge::isPackWeightsFunction(function))
      vectorizeElementwiseOps(function);
  }
  return plan;
}

LogicalResult qforge::lowerToLLVMDialect(ModuleOp module,
                                         const StrategyPlan &plan) {
  if (plan.moduleScript)
    return lowerToLLVMDialect(module, *plan.moduleScript);
  return lowerToLLVMDialect(module, [&](ModuleOp bufferized) {
    SmallVector<ScriptJob> jobs;
    for (const auto &[name, script] : plan.kernelScripts) {
      if (!script.defines(TransformScript::kAfterBufferizationEntry))
        continue;
      auto function = bufferized.lookupSymbol<func::FuncOp>(name);
      if (!function)
        return failure();
      jobs.push_back({function, &script, /*reportFailure=*/{}});
    }
    std::string error;
    return applyScripts(bufferized.getContext(), jobs,
                        TransformScript::kAfterBufferizationEntry, error);
  });
}
