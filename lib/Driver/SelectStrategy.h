//===- SelectStrategy.h - the strategy of each quantized matmul -*- C++ -*-===//
//
// Finds the quantized matmuls of a module (their contractions, in the
// canonical form the normalization reaches) and chooses each one's strategy
// from the table (Driver/StrategyTable.h). The pass qforge-select-strategy
// records the choice on the contraction as `qforge.strategy`, so a choice
// is tested with qforge-opt and FileCheck, without compiling
// (test/Driver/select-strategy.mlir); qforge-compile --print-strategy says
// it in words. The driver makes the same choice (Driver/Strategies.h).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_SELECTSTRATEGY_H
#define QFORGE_DRIVER_SELECTSTRATEGY_H

#include "Driver/Options.h"
#include "Driver/StrategyTable.h"
#include "Driver/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace qforge {

/// The target's description for `choice`, computed once per process and
/// target (null, with `error` set, for an unknown CPU or feature).
const TargetInfo *getTargetInfo(const TargetChoice &choice, std::string &error);

/// What the strategy table reads of `options`.
StrategyRequest getStrategyRequest(const StrategyOptions &options);

/// The strategy table's row for `options` (transforms/strategy-table.json,
/// docs/strategy-table.md): the first row of the family the flags and the
/// token count ask for whose condition holds on the target. None, with
/// `error` saying what is missing, when no row does.
std::optional<StrategySelection> selectStrategy(const StrategyOptions &options,
                                                std::string &error);

/// With --strategy-row: checks it names a row and no --script or flag is
/// given, and sets the flags from the row's family.
mlir::LogicalResult applyRowFlags(StrategyOptions &options, std::string &error);

/// The forms the strategies `options` ask for read, made before any site
/// is found: with --packed-weights and no --script, q4_0's blocks read in
/// place become the 4-bit seed form (Rewrites/TwoLevelAsSeedInt4.h) and
/// q6_K's the 8-bit one (Rewrites/TwoLevelAsSeedBytes.h), whose strategies
/// pack them once; read in place, the two-level strategies take them as
/// they are. Every tool that finds sites for `options` (the
/// selection pass, --print-strategy, the compile, the bench's reference)
/// calls it, so that all see one form. How many pairs were rewritten.
unsigned prepareStrategyForms(mlir::ModuleOp module,
                              const StrategyOptions &options);

/// Records on `function` the params of the row `options` select
/// (qforge.strategy_params, read by transform.qforge.strategy_param); with
/// --script too, so that a copy of a family script reads its target's
/// numbers. Records nothing when no row fits.
void recordStrategyParams(mlir::func::FuncOp function,
                          const StrategyOptions &options);

/// A quantized matmul of the module: its contraction and its shape.
struct MatmulSite {
  mlir::linalg::GenericOp contraction;
  /// M (ShapedType::kDynamic when known only at run time).
  int64_t tokens;
  /// G, the groups of a weight row (0 when unknown): in the canonical form
  /// (1, M, N, G, K), and in 4-bit byte pairs' (1, M, N, G, K/2, K%2),
  /// loop 3.
  int64_t groups = 0;
  /// The weights of a group: loop 4, times 2 for byte pairs (0: unknown).
  int64_t groupSize = 0;
  /// N, the weight rows: loop 2 (0: unknown).
  int64_t weightRows = 0;
  /// The weights are 4-bit byte pairs (the function holding it is marked).
  bool int4Weights = false;
  /// A scale or zero-point of its dequantization is computed from integers
  /// by another generic (a GGUF block's f16 joined from two of its bytes):
  /// the blocks are read in place.
  bool blocksInPlace = false;
  /// A two-level contraction (llama.cpp's K-quants: s·q − o per sub-block,
  /// analyzeTwoLevelContraction), not the canonical form.
  bool twoLevel = false;
};

/// The quantized matmuls of `module`, in walk order.
llvm::SmallVector<MatmulSite> findQuantizedMatmuls(mlir::ModuleOp module);

/// The functions of `module` holding a quantized matmul whose token count is
/// dynamic, in walk order (the surgery passes' targets).
llvm::SmallVector<mlir::func::FuncOp>
findDynamicTokenFunctions(mlir::ModuleOp module);

/// `options` for one site: the shape (and weight width) its strategy is
/// chosen by.
StrategyOptions getSiteOptions(StrategyOptions options, const MatmulSite &site);

/// The options of a dynamic M's M = 1 path, from the site's: one token,
/// packed as the batched chunks pack -- the weights are, unless a weight
/// format's blocks are read in place (GGUF's, at every M) and the user did
/// not ask for --packed-weights. A user's --script packs as it does.
StrategyOptions getDynamicDecodePathOptions(StrategyOptions siteOptions);

/// The choice for one site: for a dynamic M, `batched` is the chunks' row
/// and `decode` the M = 1 path's.
struct SiteStrategy {
  StrategySelection batchedOrOnly;
  std::optional<StrategySelection> decode;
};

/// Selects the site's strategy (no --script); a diagnostic at the
/// contraction says why none fits.
std::optional<SiteStrategy> selectSiteStrategy(const StrategyOptions &options,
                                               const MatmulSite &site);

/// The dictionary recorded as `qforge.strategy` on a site's contraction.
mlir::DictionaryAttr getStrategyAttr(mlir::MLIRContext *context,
                                     const SiteStrategy &choice);

/// Prints, per site, its function, family, row, script and why.
void printSiteStrategy(llvm::raw_ostream &os, const MatmulSite &site,
                       const SiteStrategy &choice);

/// The pass: options --mcpu, --mattr, --int8-activations,
/// --packed-weights, as qforge-compile's.
std::unique_ptr<mlir::Pass> createSelectStrategyPass();
void registerSelectStrategyPass();

inline constexpr llvm::StringLiteral kStrategyAttrName = "qforge.strategy";

} // namespace qforge

#endif // QFORGE_DRIVER_SELECTSTRATEGY_H
