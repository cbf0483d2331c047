//===- CompileGuard.cpp - bounded time and memory for a compile -----------===//

#include "Driver/CompileGuard.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "Driver/Options.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Signals.h"

#include <cstdio>
#include <unistd.h>

using namespace llvm;

namespace {
// The default bounds are for a release build. A sanitizer build
// (QFORGE_SANITIZE) runs the same compile 2-4x slower and holds shadow
// memory beside the heap: its defaults scale so that what a release build
// compiles within bounds, it does too.
#ifndef __has_feature
#define __has_feature(feature) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
constexpr unsigned kTimeScale = 4, kMemoryScale = 2;
#else
constexpr unsigned kTimeScale = 1, kMemoryScale = 1;
#endif

cl::opt<unsigned> compileTimeout(
    "compile-timeout",
    cl::desc("stop with an error when compiling the kernel takes longer than "
             "this many seconds (0: no bound)"),
    cl::init(30 * kTimeScale), cl::cat(qforge::optionCategory()));
cl::opt<uint64_t> compileMemoryLimit(
    "compile-memory-limit",
    cl::desc("stop with an error when compiling the kernel holds more than "
             "this many MiB of memory (0: no bound)"),
    cl::init(8192 * kMemoryScale), cl::cat(qforge::optionCategory()));

/// Resident memory of this process, from /proc/self/statm (0 when unknown).
uint64_t residentBytes() {
  FILE *statm = std::fopen("/proc/self/statm", "r");
  if (!statm)
    return 0;
  unsigned long long size = 0, resident = 0;
  int read = std::fscanf(statm, "%llu %llu", &size, &resident);
  std::fclose(statm);
  return read == 2 ? resident * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}
} // namespace

qforge::CompileLimits qforge::getCompileLimits() {
  return {compileTimeout, compileMemoryLimit};
}

qforge::CompileGuard::CompileGuard(StringRef tool, StringRef input,
                                   CompileLimits limits)
    : tool(tool.str()), input(input.str()), phase("compiling"), limits(limits),
      start(std::chrono::steady_clock::now()), phaseStart(start) {
  if (limits.seconds || limits.memoryMiB)
    watcher = std::thread([this] { watch(); });
}

qforge::CompileGuard::~CompileGuard() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  stopped.notify_all();
  if (watcher.joinable())
    watcher.join();
}

void qforge::CompileGuard::setPhase(StringRef newPhase) {
  std::lock_guard<std::mutex> lock(mutex);
  auto now = std::chrono::steady_clock::now();
  phaseTimes.emplace_back(
      phase, std::chrono::duration<double>(now - phaseStart).count());
  phaseStart = now;
  phase = newPhase.str();
}

void qforge::CompileGuard::printTiming(llvm::raw_ostream &os) {
  std::lock_guard<std::mutex> lock(mutex);
  auto now = std::chrono::steady_clock::now();
  double total = std::chrono::duration<double>(now - start).count();
  os << "compile time by phase (wall clock, s):\n";
  auto row = [&](double seconds, llvm::StringRef name) {
    os << llvm::format("  %8.3f  %5.1f%%  ", seconds,
                       total > 0 ? 100 * seconds / total : 0.0)
       << name << "\n";
  };
  for (const auto &[name, seconds] : phaseTimes)
    row(seconds, name);
  row(std::chrono::duration<double>(now - phaseStart).count(), phase);
  row(total, "total");
}

void qforge::CompileGuard::watch() {
  using namespace std::chrono;
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopped.wait_for(lock, milliseconds(100), [this] { return done; })) {
    double elapsed = duration<double>(steady_clock::now() - start).count();
    uint64_t resident = residentBytes();
    std::string why;
    if (limits.seconds && elapsed > limits.seconds)
      why = "did not finish within " + std::to_string(limits.seconds) +
            " s (--compile-timeout)";
    else if (limits.memoryMiB && resident > (limits.memoryMiB << 20))
      why = "holds " + std::to_string(resident >> 20) + " MiB, past " +
            std::to_string(limits.memoryMiB) + " MiB (--compile-memory-limit)";
    if (why.empty())
      continue;
    // The compile thread is somewhere inside MLIR or LLVM and cannot be
    // unwound: say where it was, remove the outputs opened so far (files
    // registered with RemoveFileOnSignal, as ToolOutputFile's are) and end
    // the process.
    // What most likely holds it, by phase: the input's reading (its child
    // is bounded apart, Driver/InputCheck.h) or the rewrites after it.
    const char *likely =
        StringRef(phase).starts_with("reading")
            ? "an input that MLIR's reader or the normalization does not "
              "finish?"
            : "a rewrite that does not converge or a script that unrolls "
              "without bound?";
    std::fprintf(stderr, "%s: error: %s: %s %s; %s\n", tool.c_str(),
                 input.c_str(), phase.c_str(), why.c_str(), likely);
    std::fflush(stderr);
    sys::RunInterruptHandlers();
    _exit(1);
  }
}
