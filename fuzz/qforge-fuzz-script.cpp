//===- qforge-fuzz-script.cpp - the script front door under libFuzzer -----===//
//
// An input is a kernel and a strategy script, split by a line
// "// ----- script": the script is applied as `qforge-compile --script`
// would, then the fixed lowering and LLVM at -O3 (for sapphirerapids, so
// that every shipped strategy's instructions exist). scripts/fuzz.sh seeds
// it with every shipped strategy on a small kernel of its kind; the numeric
// mutation (FuzzDriver.h) then edits pack, tile and unroll sizes.
//
//===----------------------------------------------------------------------===//

#include "FuzzDriver.h"

#include "llvm/ADT/StringRef.h"

using namespace qforge::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto [kernel, script] = text.split("// ----- script");
  if (script.empty() || !shapesAreSmall(kernel, kMaxElements))
    return -1;
  FuzzCompile compile;
  compile.kernelText = kernel.str();
  compile.scriptText = script.str();
  compileToLLVMIR(compile);
  return 0;
}
