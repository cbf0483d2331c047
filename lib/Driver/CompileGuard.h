//===- CompileGuard.h - bounded time and memory for a compile ---*- C++ -*-===//
//
// A rewrite that never converges or a script that unrolls without bound
// must end in an error, not a hang or an exhausted machine: a CompileGuard
// watches the compile from another thread and, past its time or resident
// memory bound, prints which phase of which kernel was running and ends the
// process with status 1.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_COMPILEGUARD_H
#define QFORGE_DRIVER_COMPILEGUARD_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace qforge {

/// The bounds of one compile: --compile-timeout and --compile-memory-limit.
struct CompileLimits {
  unsigned seconds = 30;     ///< 0: no time bound
  uint64_t memoryMiB = 8192; ///< 0: no memory bound
};
CompileLimits getCompileLimits();

class CompileGuard {
public:
  /// Starts watching; `tool` and `input` begin the diagnostic.
  CompileGuard(llvm::StringRef tool, llvm::StringRef input,
               CompileLimits limits = getCompileLimits());
  /// Stops watching (the compile finished).
  ~CompileGuard();
  CompileGuard(const CompileGuard &) = delete;
  CompileGuard &operator=(const CompileGuard &) = delete;

  /// Names what runs from now on, e.g. "applying decode-packed-f32.mlir
  /// to @matmul": the diagnostic names it when a bound is passed.
  void setPhase(llvm::StringRef phase);

  /// Prints the wall-clock time of each phase so far and the total
  /// (qforge-compile --timing).
  void printTiming(llvm::raw_ostream &os);

private:
  void watch();

  std::string tool, input, phase;
  CompileLimits limits;
  std::chrono::steady_clock::time_point start, phaseStart;
  /// The phases that ended, in order, and their seconds.
  std::vector<std::pair<std::string, double>> phaseTimes;
  std::mutex mutex;
  std::condition_variable stopped;
  bool done = false;
  std::thread watcher;
};

} // namespace qforge

#endif // QFORGE_DRIVER_COMPILEGUARD_H
