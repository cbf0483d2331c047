//===- InputCheck.cpp - untrusted input read apart first ------------------===//

#include "Driver/InputCheck.h"
#include "Driver/ToolRegistry.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

extern char **environ;

using namespace mlir;

static constexpr llvm::StringLiteral kReadCheckOption = "--qforge-read-check=";
/// The child's bounds: a reader that runs longer or holds more is stopped
/// (generous in time: a sanitizer build on a loaded machine reads a small
/// kernel in seconds).
static constexpr unsigned kReadCheckSeconds = 60;
/// Set in the child's environment.
static constexpr llvm::StringLiteral kChildMarker = "QFORGE_READ_CHECK_CHILD";
static constexpr unsigned kReadCheckMemoryMiB = 4096;
/// The child's exit status for a parse error: any other but 0 is a crash
/// (a sanitizer's report exits with 1).
static constexpr int kParseErrorStatus = 3;

std::optional<int> qforge::runReadCheckIfAsked(int argc, char **argv) {
  if (argc != 2 || !StringRef(argv[1]).starts_with(kReadCheckOption))
    return std::nullopt;
  StringRef path = StringRef(argv[1]).drop_front(kReadCheckOption.size());
  DialectRegistry registry;
  registerToolEverything(registry);
  // As the tools read it (a Session's context, diagnostics through the
  // source manager): a reader's fault can depend on either (a bytecode
  // file's double free came with its diagnostic's printing).
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto input = openInputFile(path, &error);
  if (!input)
    return kParseErrorStatus;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  // Printed to nowhere: the tool's own parse prints what is wrong.
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context, llvm::nulls());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  return module ? 0 : kParseErrorStatus;
}

/// This process's environment with each of `overrides` (name, value) set.
static std::vector<std::string> environmentWith(
    llvm::ArrayRef<std::pair<llvm::StringRef, std::string>> overrides) {
  std::vector<std::string> environment;
  for (char **variable = environ; *variable; ++variable) {
    llvm::StringRef name = llvm::StringRef(*variable).split('=').first;
    if (llvm::none_of(overrides,
                      [&](const auto &entry) { return entry.first == name; }))
      environment.push_back(*variable);
  }
  for (const auto &[name, value] : overrides)
    environment.push_back((name + "=" + value).str());
  return environment;
}

LogicalResult qforge::checkInputReadable(StringRef path, std::string &error) {
  if (path == "-")
    return success();
  // A child whose main does not answer --qforge-read-check (a libFuzzer
  // target without LLVMFuzzerInitialize once ran its fuzzing loop instead)
  // must not start children of its own, each starting another.
  if (getenv(kChildMarker.data())) {
    error = "the input could not be read: this program was started to read "
            "an input apart but does not answer --qforge-read-check";
    return failure();
  }
  std::string self = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&checkInputReadable));
  std::string option = (kReadCheckOption + path).str();
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                          StringRef("")};
  // A sanitizer's shadow memory does not fit an address-space limit.
#if defined(__SANITIZE_ADDRESS__)
  unsigned memoryMiB = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  unsigned memoryMiB = 0;
#else
  unsigned memoryMiB = kReadCheckMemoryMiB;
#endif
#else
  unsigned memoryMiB = kReadCheckMemoryMiB;
#endif
  // The child's environment: this process's, with the child's marker and
  // its own bounds. glibc's checking allocator: a reader that corrupts the
  // heap (a byte-flipped bytecode file's double free) aborts there, where
  // plain malloc let it pass and the tool's own read then crashed. A
  // sanitizer checks the heap itself, and bounds the child's memory with
  // its own option (its shadow memory does not fit an address-space limit).
  std::vector<std::pair<llvm::StringRef, std::string>> overrides = {
      {kChildMarker, "1"}};
  constexpr llvm::StringLiteral mallocDebug =
      "/lib/x86_64-linux-gnu/libc_malloc_debug.so.0";
  if (!memoryMiB) {
    const char *asanOptions = getenv("ASAN_OPTIONS");
    overrides.push_back(
        {"ASAN_OPTIONS",
         (asanOptions ? std::string(asanOptions) + ":" : "") +
             "hard_rss_limit_mb=" + std::to_string(kReadCheckMemoryMiB)});
  } else if (llvm::sys::fs::exists(mallocDebug)) {
    overrides.push_back({"LD_PRELOAD", mallocDebug.str()});
    overrides.push_back({"GLIBC_TUNABLES", "glibc.malloc.check=3"});
  }
  std::vector<std::string> environment = environmentWith(overrides);
  std::vector<llvm::StringRef> environmentRefs(environment.begin(),
                                               environment.end());
  std::string message;
  bool executionFailed = false;
  int status = llvm::sys::ExecuteAndWait(self, {self, option}, environmentRefs,
                                         redirects, kReadCheckSeconds,
                                         memoryMiB, &message, &executionFailed);
  if (executionFailed) {
    error = "the input could not be read: cannot run '" + self +
            "' to read it apart (" + message + ")";
    return failure();
  }
  if (status == 0 || status == kParseErrorStatus)
    return success();
  error =
      "the input could not be read: '" + path.str() +
      "' crashed or exhausted MLIR's reader (" +
      (message.empty() ? "exit status " + std::to_string(status) : message) +
      ", within " + std::to_string(kReadCheckSeconds) + " s and " +
      std::to_string(kReadCheckMemoryMiB) +
      " MiB); deeply nested or corrupted input?";
  return failure();
}

bool qforge::checkInputArguments(StringRef tool, int argc, char **argv) {
  for (int index = 1; index < argc; ++index) {
    StringRef argument(argv[index]);
    if (argument.starts_with("-") || StringRef(argv[index - 1]) == "-o" ||
        !llvm::sys::fs::is_regular_file(argument))
      continue;
    std::string error;
    if (failed(checkInputReadable(argument, error))) {
      llvm::errs() << tool << ": error: " << error << "\n";
      return false;
    }
  }
  return true;
}
