//===- qforge-gguf.cpp - llama.cpp's weight files -------------------------===//
//
// qforge-gguf FILE.gguf --list: the file's version, metadata count,
// alignment and architecture, then one line per tensor -- name, ggml type,
// shape (ne[0], the contiguous dim, first), offset and size in bytes. A
// malformed file is an error naming the byte where it goes wrong
// (lib/Gguf/GgufFile.h), with exit status 1.
//
//===----------------------------------------------------------------------===//

#include "Gguf/GgufFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
cl::OptionCategory category("qforge-gguf options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<FILE.gguf>"),
                               cl::cat(category), cl::init(""));
cl::opt<bool> list("list", cl::desc("print every tensor of the file"),
                   cl::cat(category), cl::init(false));
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "qforge GGUF reader\n");
  if (inputFile.empty() || !list) {
    errs() << "qforge-gguf: error: usage: qforge-gguf FILE.gguf --list\n";
    return 1;
  }
  std::string error;
  std::optional<qforge::gguf::File> file =
      qforge::gguf::File::open(inputFile, error);
  if (!file) {
    errs() << error << "\n";
    return 1;
  }
  outs() << inputFile << ": GGUF version " << file->getVersion() << ", "
         << file->getTensors().size() << " tensors, " << file->getNumMetadata()
         << " metadata keys, alignment " << file->getAlignment();
  if (!file->getArchitecture().empty())
    outs() << ", architecture " << file->getArchitecture();
  outs() << "\n";
  for (const qforge::gguf::TensorInfo &tensor : file->getTensors()) {
    std::string shape = llvm::join(
        llvm::map_range(tensor.shape,
                        [](int64_t size) { return std::to_string(size); }),
        " x ");
    outs() << format(
        "%-32s %-8s %-22s offset %12llu  %12llu bytes\n", tensor.name.c_str(),
        qforge::gguf::lookupType(tensor.typeId)->name.str().c_str(),
        shape.c_str(), (unsigned long long)tensor.fileOffset,
        (unsigned long long)tensor.bytes);
  }
  return 0;
}
