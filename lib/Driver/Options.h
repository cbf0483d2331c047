//===- Options.h - the tools' options ---------------------------*- C++ -*-===//
//
// --script, --int8-activations, --packed-weights, --mcpu, --mattr: which
// strategy runs and for
// which CPU. Defined once here so qforge-compile and qforge-bench spell and
// document them the same way.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_OPTIONS_H
#define QFORGE_DRIVER_OPTIONS_H

#include "Driver/Target.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace qforge {

struct StrategyOptions {
  std::string script; ///< empty: the shipped strategy for the target
  /// --strategy-row=family/row: that row of the table, whatever the target
  /// (its family's flags follow from it).
  std::string row;
  bool int8Activations = false;
  bool packedWeights = false; ///< the packed strategy: <f> + <f>_pack_weights
  /// The kernel has i4 weights stored as byte pairs (set from the kernel,
  /// not the command line): only the packed int4 strategies read them.
  bool int4Weights = false;
  TargetChoice target;
  /// M, the activation rows of the kernel's quantized matmul (set from the
  /// kernel): 1 picks a decode strategy, more a batched (prefill) one.
  int64_t tokens = 1;
  /// G, the groups of a weight row (set from the kernel; 0 when unknown).
  int64_t groups = 0;
  /// The weights of a group (set from the kernel; 0 when unknown).
  int64_t groupSize = 0;
  /// N, the weight rows (set from the kernel; 0 when unknown).
  int64_t weightRows = 0;
  /// A chunk of a dynamic token count's dispatch (set by the driver): its
  /// batched strategy must pack the weights as the M = 1 one does.
  bool dynamicTokens = false;
  /// The M = 1 path of a dynamic token count's dispatch (set by the driver):
  /// a forced --strategy-row (a batched one) does not apply to it.
  bool dynamicDecodePath = false;
  /// The weights' scales are decoded in the kernel from block bytes (set
  /// from the kernel: a GGUF block read in place).
  bool blocksInPlace = false;
  /// The weights are a two-level dequantization (set from the kernel:
  /// llama.cpp's K-quants, s·q − o per sub-block).
  bool twoLevel = false;
};

/// The values given on the command line (after ParseCommandLineOptions).
StrategyOptions getStrategyOptions();

/// The category of every qforge tool option: `--help` shows only these (the
/// tools call llvm::cl::HideUnrelatedOptions with it), not the hundreds of
/// options libLLVM.so registers.
llvm::cl::OptionCategory &optionCategory();

} // namespace qforge

#endif // QFORGE_DRIVER_OPTIONS_H
