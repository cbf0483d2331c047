//===- StrategyTable.h - which strategy runs on which target ----*- C++ -*-===//
//
// The strategies are data: transforms/strategy-table.json names, per family
// of quantized matmul (decode or prefill; f32 or int8 activations; 8- or
// 4-bit weights; packed or not), an ordered list of rows. A row holds its
// script, the condition it applies under (target features, the class the
// table puts the CPU in, the token count, the group shape) and the numbers
// a dynamic token count's dispatch uses. The first row whose condition
// holds is chosen, as IREE's KernelDispatch picks per target; CPU names
// appear only in the table's CPU classes. --strategy-table=FILE merges a
// file of the same form over the shipped one (docs/adding-a-target.md).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_STRATEGYTABLE_H
#define QFORGE_DRIVER_STRATEGYTABLE_H

#include "Driver/TargetInfo.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace llvm::json {
class Object;
} // namespace llvm::json

namespace qforge {

/// What the selection reads of one quantized matmul and the tool's flags.
struct StrategyRequest {
  bool int8Activations = false;
  bool packedWeights = false;
  bool int4Weights = false;
  /// M; with `dynamicTokens`, the batched chunks' strategy is asked for.
  int64_t tokens = 1;
  bool dynamicTokens = false;
  /// G and the weights of a group (0: unknown).
  int64_t groups = 0;
  int64_t groupSize = 0;
  /// The weights' scales are decoded from block bytes in the kernel (a GGUF
  /// block read in place, docs/gguf.md).
  bool blocksInPlace = false;
  /// The weights are a two-level dequantization (s·q − o per sub-block,
  /// llama.cpp's K-quants: transform.qforge.factor_two_level_contraction).
  bool twoLevel = false;

  /// Every field equal: two matmuls that ask this get the same strategy.
  bool operator==(const StrategyRequest &other) const {
    return std::tie(int8Activations, packedWeights, int4Weights, tokens,
                    dynamicTokens, groups, groupSize, blocksInPlace,
                    twoLevel) ==
           std::tie(other.int8Activations, other.packedWeights,
                    other.int4Weights, other.tokens, other.dynamicTokens,
                    other.groups, other.groupSize, other.blocksInPlace,
                    other.twoLevel);
  }
};

/// How a dynamic token count is cut into chunks for a batched row
/// (docs/scripts.md, "A dynamic token count").
struct DynamicTokenPlan {
  /// The rows the whole chunks are multiples of.
  int64_t tokenTile = 8;
  /// The whole chunks, in token tiles, the largest first (then one tile, or
  /// with int8 activations the fewest tiles of more than 8 rows). A core
  /// whose prefill is compute-bound at one tile reads the weights often
  /// enough with chunks of one tile; each size is one more specialization
  /// to compile.
  llvm::SmallVector<int64_t> chunkTiles = {16, 4};
  /// At most this many rows left go one at a time through the M = 1 path.
  int64_t rowsByDecode = 1;
  /// The smaller chunks for the rows left; unset: halvings of the smallest.
  std::optional<llvm::SmallVector<int64_t>> rowsLeftChunks;
  /// Rows left that nearly fill a larger chunk go padded into it.
  bool padNearlyFullChunks = false;
};

/// When a row applies. Unset fields do not constrain.
struct RowCondition {
  /// Every one of these LLVM features.
  llvm::SmallVector<std::string> features;
  /// At least one of these.
  llvm::SmallVector<std::string> anyFeatures;
  /// Not all of these (at least one is missing).
  llvm::SmallVector<std::string> lackingOneOf;
  /// None of these.
  llvm::SmallVector<std::string> lacking;
  /// The CPU's class in the table's cpu_classes.
  std::string cpuClass;
  /// A static M of at least this (a dynamic M never satisfies it).
  int64_t minStaticTokens = 0;
  /// G x group size at most this, both known.
  int64_t maxRowElements = 0;
  /// The group size a multiple of / not a multiple of this, known.
  int64_t groupSizeMultipleOf = 0;
  int64_t groupSizeNotMultipleOf = 0;
};

struct StrategyRow {
  std::string name;
  std::string script; ///< a file of transforms/, or a path
  /// The numbers the family's script reads (transform.qforge.strategy_param),
  /// in the table's order.
  llvm::SmallVector<std::pair<std::string, int64_t>> params;
  RowCondition when;
  std::optional<DynamicTokenPlan> dynamicTokens;
  std::string note;
};

struct StrategyFamily {
  std::string name;
  /// Which requests the family serves (unset: either).
  std::optional<bool> batched, int4Weights, int8Activations, packedWeights;
  /// Serves only (true) or never (false) weights whose blocks are read in
  /// place (GGUF blocks; unset: either).
  std::optional<bool> blocksInPlace;
  /// Serves two-level weights (unset: the family does not).
  bool twoLevel = false;
  /// How messages name it, what its rows need and how to do without.
  std::string strategy, needs, fix;
  /// Groups of fewer weights are refused (0: any).
  int64_t minGroupSize = 0;
  std::string minGroupSizeNote;
  /// With one group per row (G = 1), groups of fewer weights are refused
  /// (0: any).
  int64_t singleGroupMinSize = 0;
  std::string singleGroupMinSizeNote;
  /// The family's scripts pack the weights ahead of calls into
  /// `<f>_pack_weights` (docs/abi.md); blocks read in place are packed field
  /// by field. Said in the table's documentation.
  bool packsWeights = false;
  /// "rows_of": the family whose rows this one takes after its own (their
  /// conditions and numbers), each running `rowsScript` instead of its own
  /// (a batched family that runs a decode's steps per token). Resolved once
  /// the tuning files are merged (StrategyTable::resolveRowsOf).
  std::string rowsOf, rowsScript;
  std::vector<StrategyRow> rows;
};

struct CpuClass {
  std::string name;
  std::string note;
  llvm::SmallVector<std::string> cpus;
};

/// The outcome of a selection.
struct StrategySelection {
  const StrategyFamily *family = nullptr;
  const StrategyRow *row = nullptr;
  /// The script's path (relative table entries resolved against the
  /// transforms folder).
  std::string script;
  /// Why this row: the conditions that held, with the request's values.
  std::string why;
  /// The rows before it and the first condition each failed.
  llvm::SmallVector<std::string> passedOver;
  /// "prefill-f32/intel-64-rows".
  std::string getRowName() const;
};

class StrategyTable {
public:
  /// Parses a table file; `error` says where it is wrong.
  static std::optional<StrategyTable> load(llvm::StringRef path,
                                           std::string &error);
  /// The shipped table (transforms/strategy-table.json) with the files of
  /// --strategy-table merged over it, loaded once per process; null with
  /// `error` set when one cannot be read.
  static const StrategyTable *getActive(std::string &error);

  /// Merges `over` into this table: its CPU classes add CPU names (moving a
  /// name already listed); a row of a family this table has replaces the
  /// row of the same name, field by field, or goes first in the family
  /// when new (a tuning row wins over the shipped ones); a new family goes
  /// first.
  bool merge(const StrategyTable &over, std::string &error);

  /// Appends to each family with "rows_of" the rows of that family, with
  /// its own script; `error` when the family is unknown or takes rows
  /// itself.
  bool resolveRowsOf(std::string &error);

  /// The class the table puts `cpu` in ("" when it names it nowhere).
  llvm::StringRef getCpuClass(llvm::StringRef cpu) const;

  /// The first row of the request's family whose condition holds on
  /// `target`; when none does (or the family's limits refuse the request),
  /// `error` says what is missing and how to do without.
  std::optional<StrategySelection> select(const TargetInfo &target,
                                          const StrategyRequest &request,
                                          std::string &error) const;

  /// The row "family/row" (--strategy-row), with its family; `error` when
  /// the table has none of that name.
  std::optional<StrategySelection> findRow(llvm::StringRef name,
                                           std::string &error) const;

  /// The first row whose script is the file `path` and whose condition holds
  /// on `target` (else the first row of that script; null when none names
  /// it): a shipped script given with --script gets its numbers there.
  const StrategyRow *findRowOfScript(llvm::StringRef path,
                                     const TargetInfo &target,
                                     const StrategyRequest &request) const;

  /// The table as Markdown (docs/strategy-table.md).
  void printMarkdown(llvm::raw_ostream &os) const;

  llvm::ArrayRef<StrategyFamily> getFamilies() const { return families; }

private:
  std::string resolve(llvm::StringRef script) const;
  void mergeCpuClasses(const StrategyTable &over);

  std::vector<CpuClass> cpuClasses;
  std::vector<StrategyFamily> families;
  /// The folder relative script names are resolved in.
  std::string folder;
};

/// The command line's --strategy-table files.
std::vector<std::string> getStrategyTableOverrides();

/// The attribute on the function a script runs on holding its row's params
/// (read by transform.qforge.strategy_param).
inline constexpr llvm::StringLiteral kStrategyParamsAttrName =
    "qforge.strategy_params";

} // namespace qforge

#endif // QFORGE_DRIVER_STRATEGYTABLE_H
