//===- FuzzDriver.h - what the libFuzzer targets share ----------*- C++ -*-===//
//
// Both fuzz targets feed one input through qforge's front door as
// qforge-compile would (parse, normalize, find the kernel, apply the
// strategy, the fixed lowering, LLVM IR at -O3) and return; a crash, a
// sanitizer report or a hang is the finding. A diagnostic is a correct
// answer to a bad input, not a finding.
//
// The structure-aware mutation: MLIR text is mostly numbers that must agree
// (a shape in every type, a tile size and the size it divides), which byte
// flips rarely change coherently. Half the mutations pick a decimal number
// of the input and replace it -- one occurrence, or every occurrence of the
// same value at once (a consistent reshape) -- with a value from the edge
// cases of tiling (0, 1, primes, powers of two and their neighbours, the
// original +- 1, x 2, / 2); the other half are libFuzzer's own.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_FUZZ_FUZZDRIVER_H
#define QFORGE_FUZZ_FUZZDRIVER_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace qforge::fuzz {

/// Inputs larger than this are skipped: kernels of a few matmuls and the
/// shipped scripts fit in it.
constexpr size_t kMaxInputBytes = 64 * 1024;
/// Kernels with a type of more elements are skipped (shapesAreSmall).
constexpr uint64_t kMaxElements = uint64_t(1) << 24;

/// Where a fuzz input goes through the driver.
struct FuzzCompile {
  std::string kernelText; ///< the payload kernel (.mlir text)
  std::string scriptText; ///< a strategy script, or empty: the shipped one
  std::string cpu = "sapphirerapids";
  bool int8Activations = false;
  bool packedWeights = false;
};

/// Runs the compile to optimized LLVM IR. Returns whether it succeeded
/// (diagnostics are discarded: failing with one is a correct outcome).
bool compileToLLVMIR(const FuzzCompile &compile);

/// The kernel's tensor types hold at most `maxElements` each: a fuzzer that
/// only made a shape huge finds the compile guard, not a bug, so such inputs
/// are skipped (the guard's own tests cover them).
bool shapesAreSmall(llvm::StringRef text, uint64_t maxElements);

// The numeric mutation described above, with libFuzzer's as the fallback,
// is both targets' LLVMFuzzerCustomMutator (defined in FuzzDriver.cpp).

} // namespace qforge::fuzz

#endif // QFORGE_FUZZ_FUZZDRIVER_H
