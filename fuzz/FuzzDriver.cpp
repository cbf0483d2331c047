//===- FuzzDriver.cpp - what the libFuzzer targets share ------------------===//

#include "FuzzDriver.h"

#include "Driver/InputCheck.h"
#include "Driver/Options.h"
#include "Driver/Pipelines.h"
#include "Driver/Session.h"
#include "Driver/Strategies.h"
#include "Driver/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

/// A file of this process that holds one input at a time: the driver reads
/// kernels and scripts from paths, as the tools do.
class ScratchFile {
public:
  explicit ScratchFile(llvm::StringRef suffix) {
    int fd;
    if (llvm::sys::fs::createTemporaryFile("qforge-fuzz", suffix, fd, path))
      llvm::report_fatal_error("qforge-fuzz: cannot create a temporary file");
    llvm::sys::fs::closeFile(fd);
  }
  ~ScratchFile() { llvm::sys::fs::remove(path); }
  llvm::StringRef write(llvm::StringRef text) {
    std::error_code error;
    llvm::raw_fd_ostream out(path, error);
    if (error)
      llvm::report_fatal_error("qforge-fuzz: cannot write " + path);
    out << text;
    return path;
  }

private:
  llvm::SmallString<128> path;
};

} // namespace

/// Both targets read their kernel as the tools do (Session::parseInput),
/// first in a child process: this binary run with --qforge-read-check=FILE.
/// libFuzzer's main hands its arguments here first; without this, the child
/// ran a fuzzing loop of its own.
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  if (std::optional<int> status = qforge::runReadCheckIfAsked(*argc, *argv))
    std::_Exit(*status);
  return 0;
}

bool qforge::fuzz::compileToLLVMIR(const FuzzCompile &compile) {
  static ScratchFile kernelFile(".mlir"), scriptFile(".mlir");
  Session session;
  // Every diagnostic is an answer, not a finding: keep the log quiet
  // (QFORGE_FUZZ_DIAGNOSTICS=1 shows them, to see why an input fails).
  static const bool showDiagnostics = std::getenv("QFORGE_FUZZ_DIAGNOSTICS");
  ScopedDiagnosticHandler quiet(&session.getContext(), [](Diagnostic &) {
    return showDiagnostics ? failure() : success();
  });
  std::string error;
  OwningOpRef<ModuleOp> module =
      session.parseInput(kernelFile.write(compile.kernelText), error);
  if (!module)
    return false;
  FailureOr<func::FuncOp> kernel = findKernel(*module, "");
  if (failed(kernel))
    return false;

  StrategyOptions options;
  if (!compile.scriptText.empty())
    options.script = scriptFile.write(compile.scriptText).str();
  options.int8Activations = compile.int8Activations;
  options.packedWeights = compile.packedWeights;
  options.target.cpu = compile.cpu;
  FailureOr<StrategyPlan> plan =
      applyStrategies(session, *module, *kernel, options, error);
  if (failed(plan) || failed(lowerToLLVMDialect(*module, *plan)))
    return false;

  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(options.target, error);
  if (!machine)
    return false;
  llvm::LLVMContext llvmContext;
  bool compiled = translateAndOptimize(*module, llvmContext, *machine,
                                       options.target) != nullptr;
  if (showDiagnostics)
    llvm::errs() << "qforge-fuzz: compiled to LLVM IR\n";
  return compiled;
}

bool qforge::fuzz::shapesAreSmall(llvm::StringRef text, uint64_t maxElements) {
  for (llvm::StringRef opener : {"tensor<", "memref<", "vector<"}) {
    size_t at = 0;
    while ((at = text.find(opener, at)) != llvm::StringRef::npos) {
      at += opener.size();
      uint64_t elements = 1;
      // "AxBx...": stop at the element type (the first non-dim token).
      size_t i = at;
      while (i < text.size()) {
        if (text[i] == '?') {
          ++i;
        } else if (std::isdigit(static_cast<unsigned char>(text[i]))) {
          uint64_t dim = 0;
          for (; i < text.size() &&
                 std::isdigit(static_cast<unsigned char>(text[i]));
               ++i) {
            if (dim > maxElements)
              return false;
            dim = dim * 10 + (text[i] - '0');
          }
          if (dim != 0 && elements > maxElements / dim)
            return false;
          elements *= dim;
        } else {
          break;
        }
        if (i < text.size() && text[i] == 'x')
          ++i;
        else
          break;
      }
    }
  }
  return true;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937 random(seed);
  if (random() % 2)
    return LLVMFuzzerMutate(data, size, maxSize);
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::vector<std::pair<size_t, size_t>> numbers; // offset, length
  for (size_t i = 0; i < size;) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < size && std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    numbers.emplace_back(i, end - i);
    i = end;
  }
  if (numbers.empty())
    return LLVMFuzzerMutate(data, size, maxSize);

  auto [offset, length] = numbers[random() % numbers.size()];
  llvm::StringRef digits = text.substr(offset, length);
  uint64_t value = 0;
  if (digits.getAsInteger(10, value))
    value = 0;
  static const uint64_t edges[] = {0,   1,   2,   3,    4,    5,    7,    8,
                                   9,   15,  16,  17,   31,   32,   33,   48,
                                   63,  64,  65,  96,   127,  128,  129,  255,
                                   256, 257, 512, 1000, 1024, 4096, 65536};
  uint64_t replacement;
  switch (random() % 4) {
  case 0:
    replacement = value + 1;
    break;
  case 1:
    replacement = value ? value - 1 : 1;
    break;
  case 2:
    replacement = random() % 2 ? value * 2 : value / 2;
    break;
  default:
    replacement = edges[random() % std::size(edges)];
  }
  std::string newDigits = std::to_string(replacement);

  // One occurrence, or every whole number spelled the same (a shape
  // changed consistently across the module's types).
  bool everyOccurrence = random() % 2;
  std::string mutated;
  mutated.reserve(size + 64);
  size_t copied = 0;
  for (auto [at, len] : numbers) {
    bool chosen =
        at == offset || (everyOccurrence && text.substr(at, len) == digits);
    if (!chosen)
      continue;
    mutated.append(text.substr(copied, at - copied));
    mutated.append(newDigits);
    copied = at + len;
  }
  mutated.append(text.substr(copied));
  if (mutated.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}
