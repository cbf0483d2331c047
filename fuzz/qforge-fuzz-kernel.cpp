//===- qforge-fuzz-kernel.cpp - the kernel front door under libFuzzer -----===//
//
// An input is a kernel (.mlir text), compiled as `qforge-compile --emit=llvm
// --mcpu=sapphirerapids` would. Directive lines choose the strategy as the
// tool's flags do: "// fuzz: packed" (--packed-weights), "// fuzz: int8"
// (--int8-activations), "// fuzz: cpu=NAME" (--mcpu). scripts/fuzz.sh runs
// it on a corpus of the generators' kernels and examples/.
//
//===----------------------------------------------------------------------===//

#include "FuzzDriver.h"

#include "llvm/ADT/StringRef.h"

using namespace qforge::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The shapes stay small enough that a compile is about the front door,
  // not the compile guard.
  if (size > kMaxInputBytes)
    return -1;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (!shapesAreSmall(text, kMaxElements))
    return -1;
  FuzzCompile compile;
  compile.kernelText = text.str();
  compile.packedWeights = text.contains("// fuzz: packed");
  compile.int8Activations = text.contains("// fuzz: int8");
  constexpr llvm::StringLiteral cpuDirective = "// fuzz: cpu=";
  size_t cpu = text.find(cpuDirective);
  if (cpu != llvm::StringRef::npos)
    compile.cpu = text.substr(cpu + cpuDirective.size()).take_until([](char c) {
      return c == '\n' || c == ' ';
    });
  compileToLLVMIR(compile);
  return 0;
}
