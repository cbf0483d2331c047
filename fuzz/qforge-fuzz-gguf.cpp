//===- qforge-fuzz-gguf.cpp - the GGUF reader under libFuzzer -------------===//
//
// An input is a GGUF file (seeded with test/Tools/Inputs/write-gguf.py's,
// valid and broken), read by qforge::gguf::File (lib/Gguf/GgufFile.h) and,
// when it reads, every tensor's bytes touched. An error is the answer to a
// bad file; a crash, sanitizer report, hang or allocation out of proportion
// to the input is a finding. scripts/fuzz.sh gguf runs it.
//
//===----------------------------------------------------------------------===//

#include "Gguf/GgufFile.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  std::optional<qforge::gguf::File> file = qforge::gguf::File::read(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size)),
      "input", error);
  if (!file)
    return 0;
  // Every tensor's extent must lie in the input: read its first and last
  // bytes (ASan reports a read past the buffer).
  volatile uint8_t sink = 0;
  for (const qforge::gguf::TensorInfo &tensor : file->getTensors()) {
    llvm::ArrayRef<uint8_t> bytes = file->getData(tensor);
    if (!bytes.empty())
      sink = sink + bytes.front() + bytes.back();
  }
  (void)sink;
  return 0;
}
