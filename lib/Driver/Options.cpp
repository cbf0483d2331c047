//===- Options.cpp - command-line options shared by the qforge tools ------===//

#include "Driver/Options.h"

#include "llvm/Support/CommandLine.h"

namespace cl = llvm::cl;

llvm::cl::OptionCategory &qforge::optionCategory() {
  static cl::OptionCategory category("qforge options");
  return category;
}

namespace {
cl::opt<std::string> scriptFile(
    "script",
    cl::desc("transform script (default: the shipped decode strategy for the "
             "target CPU, docs/scripts.md)"),
    cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<bool> int8Activations(
    "int8-activations",
    cl::desc("without --script: the integer decode strategy (activation "
             "quantized per group to int8; opt-in, ~3e-3 normalized error)"),
    cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<bool> packedWeights(
    "packed-weights",
    cl::desc("without --script: the packed decode strategy (AVX-512): the "
             "kernel takes weights, scales and zero-points packed once by "
             "<f>_pack_weights (docs/abi.md)"),
    cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<std::string> strategyRow(
    "strategy-row",
    cl::desc("the strategy table's row 'family/row' (docs/strategy-table.md), "
             "whatever the target: its script with its numbers"),
    cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<std::string> cpuName("mcpu",
                             cl::desc("target CPU ('native': the host)"),
                             cl::cat(qforge::optionCategory()),
                             cl::init("native"));
cl::opt<std::string> cpuAttrs("mattr", cl::desc("extra target features"),
                              cl::cat(qforge::optionCategory()), cl::init(""));
} // namespace

qforge::StrategyOptions qforge::getStrategyOptions() {
  StrategyOptions options;
  options.script = scriptFile;
  options.row = strategyRow;
  options.int8Activations = int8Activations;
  options.packedWeights = packedWeights;
  options.target = TargetChoice{cpuName, cpuAttrs};
  return options;
}
