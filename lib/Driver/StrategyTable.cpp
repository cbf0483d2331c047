//===- StrategyTable.cpp - which strategy runs on which target ------------===//

#include "Driver/StrategyTable.h"

#include "Driver/Options.h"
#include "Driver/Script.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <mutex>

using namespace qforge;
using llvm::SmallVector;
namespace json = llvm::json;

namespace {
llvm::cl::list<std::string> strategyTableFiles(
    "strategy-table",
    llvm::cl::desc("a strategy table merged over the shipped one "
                   "(transforms/strategy-table.json; docs/adding-a-target.md)"),
    llvm::cl::cat(qforge::optionCategory()));

/// Reads a JSON table, saying where a field is wrong: every object's keys
/// are checked, so a misspelt condition is an error, not a row that always
/// applies.
class TableReader {
public:
  explicit TableReader(std::string &error) : error(error) {}

  bool fail(const llvm::Twine &where, const llvm::Twine &what) {
    if (error.empty())
      error = (where + ": " + what).str();
    return false;
  }

  bool checkKeys(const json::Object &object, const llvm::Twine &where,
                 llvm::ArrayRef<llvm::StringRef> known) {
    for (const auto &entry : object)
      if (!llvm::is_contained(known, llvm::StringRef(entry.first)))
        return fail(where, "unknown key '" + entry.first.str() +
                               "' (known: " + llvm::join(known, ", ") + ")");
    return true;
  }

  bool readString(const json::Object &object, llvm::StringRef key,
                  const llvm::Twine &where, std::string &out,
                  bool required = false) {
    const json::Value *value = object.get(key);
    if (!value)
      return !required || fail(where, "'" + key + "' is missing");
    std::optional<llvm::StringRef> text = value->getAsString();
    if (!text)
      return fail(where, "'" + key + "' must be a string");
    out = text->str();
    return true;
  }

  bool readInteger(const json::Object &object, llvm::StringRef key,
                   const llvm::Twine &where, int64_t &out) {
    const json::Value *value = object.get(key);
    if (!value)
      return true;
    std::optional<int64_t> number = value->getAsInteger();
    if (!number || *number < 0)
      return fail(where, "'" + key + "' must be an integer >= 0");
    out = *number;
    return true;
  }

  bool readBool(const json::Object &object, llvm::StringRef key,
                const llvm::Twine &where, std::optional<bool> &out) {
    const json::Value *value = object.get(key);
    if (!value)
      return true;
    out = value->getAsBoolean();
    return out.has_value() || fail(where, "'" + key + "' must be true/false");
  }

  bool readStrings(const json::Object &object, llvm::StringRef key,
                   const llvm::Twine &where,
                   llvm::SmallVectorImpl<std::string> &out) {
    const json::Value *value = object.get(key);
    if (!value)
      return true;
    const json::Array *array = value->getAsArray();
    if (!array)
      return fail(where, "'" + key + "' must be a list of strings");
    for (const json::Value &element : *array) {
      std::optional<llvm::StringRef> text = element.getAsString();
      if (!text)
        return fail(where, "'" + key + "' must be a list of strings");
      out.push_back(text->str());
    }
    return true;
  }

  bool readCondition(const json::Object &object, const llvm::Twine &where,
                     RowCondition &when) {
    return checkKeys(object, where,
                     {"features", "any_features", "lacking_one_of", "lacking",
                      "cpu_class", "min_static_tokens", "max_row_elements",
                      "group_size_multiple_of",
                      "group_size_not_multiple_of"}) &&
           readStrings(object, "features", where, when.features) &&
           readStrings(object, "any_features", where, when.anyFeatures) &&
           readStrings(object, "lacking_one_of", where, when.lackingOneOf) &&
           readStrings(object, "lacking", where, when.lacking) &&
           readString(object, "cpu_class", where, when.cpuClass) &&
           readInteger(object, "min_static_tokens", where,
                       when.minStaticTokens) &&
           readInteger(object, "max_row_elements", where,
                       when.maxRowElements) &&
           readInteger(object, "group_size_multiple_of", where,
                       when.groupSizeMultipleOf) &&
           readInteger(object, "group_size_not_multiple_of", where,
                       when.groupSizeNotMultipleOf);
  }

  bool readDynamicTokens(const json::Object &object, const llvm::Twine &where,
                         DynamicTokenPlan &plan) {
    if (!checkKeys(object, where,
                   {"token_tile", "chunk_tiles", "rows_by_decode",
                    "rows_left_chunks", "pad_nearly_full_chunks"}) ||
        !readInteger(object, "token_tile", where, plan.tokenTile) ||
        !readInteger(object, "rows_by_decode", where, plan.rowsByDecode))
      return false;
    if (plan.tokenTile < 1)
      return fail(where, "'token_tile' must be at least 1");
    std::optional<bool> pad;
    if (!readBool(object, "pad_nearly_full_chunks", where, pad))
      return false;
    plan.padNearlyFullChunks = pad.value_or(false);
    if (const json::Value *value = object.get("chunk_tiles")) {
      const json::Array *array = value->getAsArray();
      const char *expected = "'chunk_tiles' must be a non-empty list of "
                             "decreasing integers from 1 to 1024";
      if (!array || array->empty())
        return fail(where, expected);
      plan.chunkTiles.clear();
      for (const json::Value &element : *array) {
        std::optional<int64_t> tiles = element.getAsInteger();
        if (!tiles || *tiles < 1 || *tiles > 1024 ||
            (!plan.chunkTiles.empty() && *tiles >= plan.chunkTiles.back()))
          return fail(where, expected);
        plan.chunkTiles.push_back(*tiles);
      }
    }
    if (plan.tokenTile == 1 && plan.chunkTiles.front() == 1)
      return fail(where, "chunks of one row only (a token tile of 1, chunks "
                         "of 1 tile): that is the M = 1 path");
    if (const json::Value *value = object.get("rows_left_chunks")) {
      const json::Array *array = value->getAsArray();
      if (!array)
        return fail(where, "'rows_left_chunks' must be a list of integers");
      plan.rowsLeftChunks.emplace();
      for (const json::Value &element : *array) {
        std::optional<int64_t> size = element.getAsInteger();
        if (!size)
          return fail(where, "'rows_left_chunks' must be a list of integers");
        plan.rowsLeftChunks->push_back(*size);
      }
    }
    return true;
  }

  bool readRow(const json::Object &object, const llvm::Twine &where,
               StrategyRow &row) {
    if (!checkKeys(object, where,
                   {"row", "script", "params", "when", "dynamic_m", "note"}) ||
        !readString(object, "row", where, row.name, /*required=*/true) ||
        !readString(object, "script", where, row.script) ||
        !readString(object, "note", where, row.note))
      return false;
    if (const json::Value *when = object.get("when")) {
      const json::Object *condition = when->getAsObject();
      if (!condition)
        return fail(where, "'when' must be an object");
      if (!readCondition(*condition, where + ".when", row.when))
        return false;
    }
    if (const json::Value *params = object.get("params")) {
      const json::Object *numbers = params->getAsObject();
      if (!numbers)
        return fail(where, "'params' must be an object of integers");
      for (const auto &entry : *numbers) {
        std::optional<int64_t> value = entry.second.getAsInteger();
        if (!value)
          return fail(where + ".params",
                      "'" + entry.first.str() + "' must be an integer");
        row.params.emplace_back(entry.first.str(), *value);
      }
      // JSON objects are unordered: a stable order for the attribute.
      llvm::sort(row.params);
    }
    if (const json::Value *dynamic = object.get("dynamic_m")) {
      const json::Object *plan = dynamic->getAsObject();
      if (!plan)
        return fail(where, "'dynamic_m' must be an object");
      row.dynamicTokens.emplace();
      if (!readDynamicTokens(*plan, where + ".dynamic_m", *row.dynamicTokens))
        return false;
    }
    return true;
  }

  bool readFamily(const json::Object &object, const llvm::Twine &where,
                  StrategyFamily &family) {
    std::optional<bool> packsWeights, twoLevel;
    if (!checkKeys(object, where,
                   {"family", "for", "strategy", "needs", "fix", "rows",
                    "min_group_size", "min_group_size_note",
                    "single_group_min_size", "single_group_min_size_note",
                    "packs_weights", "rows_of", "script"}) ||
        !readString(object, "rows_of", where, family.rowsOf) ||
        !readString(object, "script", where, family.rowsScript) ||
        !readString(object, "family", where, family.name, true) ||
        !readString(object, "strategy", where, family.strategy) ||
        !readString(object, "needs", where, family.needs) ||
        !readString(object, "fix", where, family.fix) ||
        !readInteger(object, "min_group_size", where, family.minGroupSize) ||
        !readString(object, "min_group_size_note", where,
                    family.minGroupSizeNote) ||
        !readInteger(object, "single_group_min_size", where,
                     family.singleGroupMinSize) ||
        !readString(object, "single_group_min_size_note", where,
                    family.singleGroupMinSizeNote) ||
        !readBool(object, "packs_weights", where, packsWeights))
      return false;
    family.packsWeights = packsWeights.value_or(false);
    if (family.rowsOf.empty() != family.rowsScript.empty())
      return fail(where, "'rows_of' and 'script' go together: the family "
                         "whose rows it takes, and the script they run");
    if (const json::Value *forValue = object.get("for")) {
      const json::Object *request = forValue->getAsObject();
      std::string at = (where + ".for").str();
      if (!request)
        return fail(where, "'for' must be an object");
      if (!checkKeys(*request, at,
                     {"batched", "blocks_in_place", "int4_weights",
                      "int8_activations", "packed_weights", "two_level"}) ||
          !readBool(*request, "blocks_in_place", at, family.blocksInPlace) ||
          !readBool(*request, "batched", at, family.batched) ||
          !readBool(*request, "int4_weights", at, family.int4Weights) ||
          !readBool(*request, "int8_activations", at, family.int8Activations) ||
          !readBool(*request, "packed_weights", at, family.packedWeights) ||
          !readBool(*request, "two_level", at, twoLevel))
        return false;
      family.twoLevel = twoLevel.value_or(false);
    }
    if (const json::Value *rows = object.get("rows")) {
      const json::Array *array = rows->getAsArray();
      if (!array)
        return fail(where, "'rows' must be a list");
      for (auto [index, element] : llvm::enumerate(*array)) {
        const json::Object *row = element.getAsObject();
        std::string at = (where + ".rows[" + llvm::Twine(index) + "]").str();
        if (!row)
          return fail(at, "a row must be an object");
        family.rows.emplace_back();
        if (!readRow(*row, at, family.rows.back()))
          return false;
      }
    }
    return true;
  }

  bool readTable(const json::Value &root, llvm::StringRef where,
                 std::vector<CpuClass> &classes,
                 std::vector<StrategyFamily> &families) {
    const json::Object *object = root.getAsObject();
    if (!object)
      return fail(where, "the table must be a JSON object");
    if (!checkKeys(*object, where, {"about", "cpu_classes", "families"}))
      return false;
    if (const json::Value *value = object->get("cpu_classes")) {
      const json::Array *array = value->getAsArray();
      if (!array)
        return fail(where, "'cpu_classes' must be a list");
      for (auto [index, element] : llvm::enumerate(*array)) {
        std::string at =
            (where + ": cpu_classes[" + llvm::Twine(index) + "]").str();
        const json::Object *entry = element.getAsObject();
        if (!entry)
          return fail(at, "a CPU class must be an object");
        CpuClass cpuClass;
        if (!checkKeys(*entry, at, {"class", "note", "cpus"}) ||
            !readString(*entry, "class", at, cpuClass.name, true) ||
            !readString(*entry, "note", at, cpuClass.note) ||
            !readStrings(*entry, "cpus", at, cpuClass.cpus))
          return false;
        classes.push_back(std::move(cpuClass));
      }
    }
    if (const json::Value *value = object->get("families")) {
      const json::Array *array = value->getAsArray();
      if (!array)
        return fail(where, "'families' must be a list");
      for (auto [index, element] : llvm::enumerate(*array)) {
        std::string at =
            (where + ": families[" + llvm::Twine(index) + "]").str();
        const json::Object *entry = element.getAsObject();
        if (!entry)
          return fail(at, "a family must be an object");
        families.emplace_back();
        if (!readFamily(*entry, at, families.back()))
          return false;
      }
    }
    return true;
  }

private:
  std::string &error;
};

/// The first condition of `when` that fails on `target` for `request`, or
/// none; `held` collects the ones that hold, said with their values.
std::optional<std::string>
checkCondition(const RowCondition &when, const TargetInfo &target,
               llvm::StringRef cpuClass, const StrategyRequest &request,
               llvm::SmallVectorImpl<std::string> &held) {
  for (const std::string &feature : when.features) {
    if (!target.hasFeature(feature))
      return "lacks " + feature;
    held.push_back("has " + feature);
  }
  if (!when.anyFeatures.empty()) {
    auto found = llvm::find_if(when.anyFeatures, [&](const std::string &name) {
      return target.hasFeature(name);
    });
    if (found == when.anyFeatures.end())
      return "has none of " + llvm::join(when.anyFeatures, ", ");
    held.push_back("has " + *found);
  }
  if (!when.lackingOneOf.empty()) {
    auto missing =
        llvm::find_if(when.lackingOneOf, [&](const std::string &name) {
          return !target.hasFeature(name);
        });
    if (missing == when.lackingOneOf.end())
      return "has all of " + llvm::join(when.lackingOneOf, ", ");
    held.push_back("lacks " + *missing);
  }
  for (const std::string &feature : when.lacking) {
    if (target.hasFeature(feature))
      return "has " + feature;
    held.push_back("lacks " + feature);
  }
  if (!when.cpuClass.empty()) {
    if (cpuClass != when.cpuClass)
      return "CPU '" + target.getCpu().str() + "' is not in class " +
             when.cpuClass;
    held.push_back("CPU '" + target.getCpu().str() + "' is in class " +
                   when.cpuClass);
  }
  if (when.minStaticTokens > 0) {
    if (request.dynamicTokens)
      return "M is dynamic, not a static M >= " +
             std::to_string(when.minStaticTokens);
    if (request.tokens < when.minStaticTokens)
      return "M = " + std::to_string(request.tokens) + " < " +
             std::to_string(when.minStaticTokens);
    held.push_back("M = " + std::to_string(request.tokens) +
                   " >= " + std::to_string(when.minStaticTokens));
  }
  if (when.maxRowElements > 0) {
    int64_t elements = request.groups * request.groupSize;
    if (request.groups <= 0 || request.groupSize <= 0)
      return std::string("the group shape is unknown");
    if (elements > when.maxRowElements)
      return "G x group size = " + std::to_string(elements) + " > " +
             std::to_string(when.maxRowElements);
    held.push_back("G x group size = " + std::to_string(elements) +
                   " <= " + std::to_string(when.maxRowElements));
  }
  if (when.groupSizeMultipleOf > 0) {
    if (request.groupSize <= 0 ||
        request.groupSize % when.groupSizeMultipleOf != 0)
      return "the group size " + std::to_string(request.groupSize) +
             " is not a multiple of " +
             std::to_string(when.groupSizeMultipleOf);
    held.push_back("group size " + std::to_string(request.groupSize) +
                   " is a multiple of " +
                   std::to_string(when.groupSizeMultipleOf));
  }
  if (when.groupSizeNotMultipleOf > 0) {
    if (request.groupSize <= 0 ||
        request.groupSize % when.groupSizeNotMultipleOf == 0)
      return "the group size " + std::to_string(request.groupSize) +
             " is a multiple of " + std::to_string(when.groupSizeNotMultipleOf);
    held.push_back("group size " + std::to_string(request.groupSize) +
                   " is not a multiple of " +
                   std::to_string(when.groupSizeNotMultipleOf));
  }
  return std::nullopt;
}

bool serves(const StrategyFamily &family, const StrategyRequest &request) {
  auto matches = [](std::optional<bool> wanted, bool actual) {
    return !wanted || *wanted == actual;
  };
  return matches(family.batched, request.tokens > 1 || request.dynamicTokens) &&
         matches(family.int4Weights, request.int4Weights) &&
         matches(family.int8Activations, request.int8Activations) &&
         matches(family.packedWeights, request.packedWeights) &&
         matches(family.blocksInPlace, request.blocksInPlace) &&
         family.twoLevel == request.twoLevel;
}

std::string describeCondition(const RowCondition &when) {
  llvm::SmallVector<std::string> parts;
  if (!when.features.empty())
    parts.push_back(llvm::join(when.features, " + "));
  if (!when.anyFeatures.empty())
    parts.push_back("one of " + llvm::join(when.anyFeatures, ", "));
  if (!when.lackingOneOf.empty())
    parts.push_back("not all of " + llvm::join(when.lackingOneOf, ", "));
  if (!when.lacking.empty())
    parts.push_back("none of " + llvm::join(when.lacking, ", "));
  if (!when.cpuClass.empty())
    parts.push_back("class " + when.cpuClass);
  if (when.minStaticTokens)
    parts.push_back("static M >= " + std::to_string(when.minStaticTokens));
  if (when.maxRowElements)
    parts.push_back("G x group <= " + std::to_string(when.maxRowElements));
  if (when.groupSizeMultipleOf)
    parts.push_back("group % " + std::to_string(when.groupSizeMultipleOf) +
                    " == 0");
  if (when.groupSizeNotMultipleOf)
    parts.push_back("group % " + std::to_string(when.groupSizeNotMultipleOf) +
                    " != 0");
  return parts.empty() ? "always" : llvm::join(parts, "; ");
}
} // namespace

std::string StrategySelection::getRowName() const {
  return family->name + "/" + row->name;
}

std::optional<StrategyTable> StrategyTable::load(llvm::StringRef path,
                                                 std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read the strategy table '" + path.str() +
            "': " + buffer.getError().message();
    return std::nullopt;
  }
  llvm::Expected<json::Value> root = json::parse((*buffer)->getBuffer());
  if (!root) {
    error = "the strategy table '" + path.str() +
            "' is not valid JSON: " + llvm::toString(root.takeError());
    return std::nullopt;
  }
  StrategyTable table;
  table.folder = llvm::sys::path::parent_path(path).str();
  TableReader reader(error);
  if (!reader.readTable(*root, path, table.cpuClasses, table.families))
    return std::nullopt;
  return table;
}

std::vector<std::string> qforge::getStrategyTableOverrides() {
  return {strategyTableFiles.begin(), strategyTableFiles.end()};
}

const StrategyTable *StrategyTable::getActive(std::string &error) {
  static std::once_flag once;
  static std::optional<StrategyTable> active;
  static std::string loadError;
  std::call_once(once, [] {
    active = load(getTransformsDir() + "/strategy-table.json", loadError);
    for (const std::string &path : getStrategyTableOverrides()) {
      if (!active)
        return;
      std::optional<StrategyTable> over = load(path, loadError);
      if (!over || !active->merge(*over, loadError))
        active.reset();
    }
    if (active && !active->resolveRowsOf(loadError))
      active.reset();
  });
  if (!active) {
    error = loadError;
    return nullptr;
  }
  return &*active;
}

/// `row` of a tuning file over `known`, field by field: what it states
/// replaces the shipped.
static void mergeRowFields(StrategyRow &known, const StrategyRow &row,
                           std::string script) {
  if (!row.script.empty())
    known.script = std::move(script);
  const RowCondition &when = row.when;
  if (!when.features.empty() || !when.anyFeatures.empty() ||
      !when.lackingOneOf.empty() || !when.lacking.empty() ||
      !when.cpuClass.empty() || when.minStaticTokens || when.maxRowElements ||
      when.groupSizeMultipleOf || when.groupSizeNotMultipleOf)
    known.when = when;
  if (row.dynamicTokens)
    known.dynamicTokens = row.dynamicTokens;
  if (!row.note.empty())
    known.note = row.note;
  for (const auto &[key, value] : row.params) {
    // (A structured binding is captured by name only from C++20.)
    llvm::StringRef name = key;
    auto param = llvm::find_if(
        known.params, [&](const auto &entry) { return entry.first == name; });
    if (param == known.params.end())
      known.params.emplace_back(key, value);
    else
      param->second = value;
  }
  llvm::sort(known.params);
}

void StrategyTable::mergeCpuClasses(const StrategyTable &over) {
  for (const CpuClass &cpuClass : over.cpuClasses) {
    for (CpuClass &existing : cpuClasses)
      llvm::erase_if(existing.cpus, [&](const std::string &cpu) {
        return llvm::is_contained(cpuClass.cpus, cpu);
      });
    auto existing = llvm::find_if(cpuClasses, [&](const CpuClass &known) {
      return known.name == cpuClass.name;
    });
    if (existing == cpuClasses.end())
      cpuClasses.push_back(cpuClass);
    else
      llvm::append_range(existing->cpus, cpuClass.cpus);
  }
}

bool StrategyTable::merge(const StrategyTable &over, std::string &error) {
  mergeCpuClasses(over);
  // Relative scripts of the tuning file are its folder's.
  auto resolved = [&](const std::string &script) {
    return script.empty() ? script : over.resolve(script);
  };
  for (const StrategyFamily &family : over.families) {
    auto existing = llvm::find_if(families, [&](const StrategyFamily &known) {
      return known.name == family.name;
    });
    if (existing == families.end()) {
      if (!family.batched && !family.int4Weights && !family.int8Activations &&
          !family.packedWeights) {
        error = "the strategy table merged in adds the family '" + family.name +
                "' without 'for': it would serve every request";
        return false;
      }
      StrategyFamily added = family;
      for (StrategyRow &row : added.rows)
        row.script = resolved(row.script);
      added.rowsScript = resolved(added.rowsScript);
      families.insert(families.begin(), std::move(added));
      continue;
    }
    size_t inserted = 0;
    for (const StrategyRow &row : family.rows) {
      auto known = llvm::find_if(existing->rows, [&](const StrategyRow &r) {
        return r.name == row.name;
      });
      if (known != existing->rows.end()) {
        mergeRowFields(*known, row, resolved(row.script));
        continue;
      }
      if (row.script.empty()) {
        error = "the strategy table merged in adds the row '" + family.name +
                "/" + row.name + "' without a script";
        return false;
      }
      StrategyRow added = row;
      added.script = resolved(row.script);
      existing->rows.insert(existing->rows.begin() + inserted++,
                            std::move(added));
    }
  }
  return true;
}

bool StrategyTable::resolveRowsOf(std::string &error) {
  for (StrategyFamily &family : families) {
    if (family.rowsOf.empty())
      continue;
    auto source = llvm::find_if(families, [&](const StrategyFamily &other) {
      return other.name == family.rowsOf;
    });
    if (source == families.end() || !source->rowsOf.empty()) {
      error = "the strategy table's family '" + family.name +
              "' takes the rows of '" + family.rowsOf + "', " +
              (source == families.end() ? std::string("which it does not hold")
                                        : "which takes its rows from another");
      return false;
    }
    for (const StrategyRow &row : source->rows) {
      StrategyRow copied = row;
      copied.script = family.rowsScript;
      family.rows.push_back(std::move(copied));
    }
  }
  return true;
}

llvm::StringRef StrategyTable::getCpuClass(llvm::StringRef cpu) const {
  for (const CpuClass &cpuClass : cpuClasses)
    if (llvm::is_contained(cpuClass.cpus, cpu))
      return cpuClass.name;
  return "";
}

std::optional<StrategySelection>
StrategyTable::select(const TargetInfo &target, const StrategyRequest &request,
                      std::string &error) const {
  auto family = llvm::find_if(families, [&](const StrategyFamily &family) {
    return serves(family, request);
  });
  if (family == families.end()) {
    error = "the strategy table has no family for this quantized matmul";
    if (request.twoLevel)
      error += ": two-level weights (llama.cpp's K-quants, s·q - o per "
               "sub-block) that no packing takes as the seed form (the "
               "fields apart, whose quants, scales and offsets read several "
               "arguments) are read in place, not packed: drop "
               "--packed-weights (docs/gguf.md), or pass --script "
               "transforms/loops.mlir for scalar loops";
    return std::nullopt;
  }
  if (family->minGroupSize > 0 && request.groupSize > 0 &&
      request.groupSize < family->minGroupSize) {
    error = "the " + family->strategy + " needs groups of at least " +
            std::to_string(family->minGroupSize) +
            " weights (the kernel's have " + std::to_string(request.groupSize) +
            "); " + family->fix;
    return std::nullopt;
  }
  if (family->singleGroupMinSize > 0 && request.groups == 1 &&
      request.groupSize > 0 && request.groupSize < family->singleGroupMinSize) {
    error = "the " + family->strategy + " needs a row of one group (G = 1) " +
            "to hold at least " + std::to_string(family->singleGroupMinSize) +
            " weights (the kernel's has " + std::to_string(request.groupSize) +
            ": " + family->singleGroupMinSizeNote + "); " + family->fix;
    return std::nullopt;
  }
  llvm::StringRef cpuClass = getCpuClass(target.getCpu());
  StrategySelection selection;
  selection.family = &*family;
  for (const StrategyRow &row : family->rows) {
    llvm::SmallVector<std::string> held;
    std::optional<std::string> failed =
        checkCondition(row.when, target, cpuClass, request, held);
    if (failed) {
      selection.passedOver.push_back(family->name + "/" + row.name + ": " +
                                     *failed);
      continue;
    }
    selection.row = &row;
    selection.why = held.empty() ? "always" : llvm::join(held, ", ");
    selection.script = resolve(row.script);
    return selection;
  }
  error = "the " + family->strategy + " needs " + family->needs +
          ", which the target (" + target.getDescription().str() + ") lacks; " +
          family->fix;
  return std::nullopt;
}

std::string StrategyTable::resolve(llvm::StringRef script) const {
  if (llvm::sys::path::is_absolute(script))
    return script.str();
  llvm::SmallString<256> path(folder);
  llvm::sys::path::append(path, script);
  return std::string(path);
}

std::optional<StrategySelection>
StrategyTable::findRow(llvm::StringRef name, std::string &error) const {
  auto [familyName, rowName] = name.split('/');
  for (const StrategyFamily &family : families) {
    if (family.name != familyName)
      continue;
    for (const StrategyRow &row : family.rows) {
      if (row.name != rowName)
        continue;
      StrategySelection selection;
      selection.family = &family;
      selection.row = &row;
      selection.script = resolve(row.script);
      selection.why = "--strategy-row";
      return selection;
    }
  }
  SmallVector<std::string> names;
  for (const StrategyFamily &family : families)
    for (const StrategyRow &row : family.rows)
      names.push_back(family.name + "/" + row.name);
  error = "the strategy table has no row '" + name.str() +
          "' (its rows: " + llvm::join(names, ", ") + ")";
  return std::nullopt;
}

const StrategyRow *
StrategyTable::findRowOfScript(llvm::StringRef path, const TargetInfo &target,
                               const StrategyRequest &request) const {
  llvm::StringRef cpuClass = getCpuClass(target.getCpu());
  const StrategyRow *first = nullptr;
  for (const StrategyFamily &family : families)
    for (const StrategyRow &row : family.rows) {
      if (!llvm::sys::fs::equivalent(resolve(row.script), path))
        continue;
      llvm::SmallVector<std::string> held;
      if (!checkCondition(row.when, target, cpuClass, request, held))
        return &row;
      if (!first)
        first = &row;
    }
  return first;
}

void StrategyTable::printMarkdown(llvm::raw_ostream &os) const {
  os << "<!-- Generated from transforms/strategy-table.json by "
        "`qforge-compile --print-strategy-table`; "
        "test/Driver/strategy-table-doc.test fails when it drifts. -->\n"
     << "# The strategy table\n\n"
     << "For each family the first row whose condition holds is chosen "
        "(docs/architecture.md, \"Strategy selection\").\n\n"
     << "| class | CPUs | note |\n|---|---|---|\n";
  for (const CpuClass &cpuClass : cpuClasses)
    os << "| " << cpuClass.name << " | " << llvm::join(cpuClass.cpus, ", ")
       << " | " << cpuClass.note << " |\n";
  os << "\n| family | for | without a row |\n|---|---|---|\n";
  for (const StrategyFamily &family : families) {
    os << "| " << family.name << " | the " << family.strategy;
    if (!family.rowsOf.empty())
      os << ": the rows of " << family.rowsOf << ", running "
         << family.rowsScript;
    os << " | needs " << family.needs << " (" << family.fix << ")";
    if (family.minGroupSize)
      os << "; groups of at least " << family.minGroupSize
         << " weights: " << family.minGroupSizeNote;
    if (family.singleGroupMinSize)
      os << "; one group per row (G = 1) of at least "
         << family.singleGroupMinSize
         << " weights: " << family.singleGroupMinSizeNote;
    if (family.packsWeights)
      os << "; packs the weights ahead of calls (`<f>_pack_weights`, "
            "docs/abi.md; a format's blocks field by field)";
    os << " |\n";
  }
  os << "\n| family/row | when | script | params | dynamic M (tile; "
        "chunks; rows left) | note |\n|---|---|---|---|---|---|\n";
  for (const StrategyFamily &family : families) {
    for (const StrategyRow &row : family.rows) {
      std::string dynamic = "-";
      if (row.dynamicTokens) {
        const DynamicTokenPlan &plan = *row.dynamicTokens;
        dynamic = std::to_string(plan.tokenTile);
        if (plan.chunkTiles != DynamicTokenPlan().chunkTiles)
          dynamic +=
              "; chunks of " +
              llvm::join(llvm::map_range(plan.chunkTiles,
                                         [](int64_t tiles) {
                                           return std::to_string(tiles);
                                         }),
                         ", ") +
              (plan.chunkTiles == SmallVector<int64_t>{1} ? " tile" : " tiles");
        if (plan.rowsLeftChunks)
          dynamic +=
              "; " + llvm::join(llvm::map_range(*plan.rowsLeftChunks,
                                                [](int64_t size) {
                                                  return std::to_string(size);
                                                }),
                                ", ");
        if (plan.rowsByDecode != 1)
          dynamic += "; by decode " + std::to_string(plan.rowsByDecode);
        if (plan.padNearlyFullChunks)
          dynamic += "; pads nearly full chunks";
      }
      std::string params = llvm::join(
          llvm::map_range(row.params,
                          [](const std::pair<std::string, int64_t> &param) {
                            return param.first + " " +
                                   std::to_string(param.second);
                          }),
          ", ");
      os << "| " << family.name << "/" << row.name << " | "
         << describeCondition(row.when) << " | " << row.script << " | "
         << (params.empty() ? "-" : params) << " | " << dynamic << " | "
         << row.note << " |\n";
    }
  }
}
