//===- qforge-gguf.cpp - llama.cpp's weight files -------------------------===//
//
// qforge-gguf FILE.gguf --list: the file's version, metadata count,
// alignment and architecture, then one line per tensor -- name, ggml type,
// shape (ne[0], the contiguous dim, first), offset and size in bytes. A
// malformed file is an error naming the byte where it goes wrong
// (lib/Gguf/GgufFile.h), with exit status 1.
//
// qforge-gguf FILE.gguf --tensor=NAME|--layer=I [--tokens=M|dynamic]
// [-o K.mlir]:
// the kernel y = x . W^T of that weight tensor, or LLaMA layer I's seven
// matmuls with the elementwise ops between them, the blocks read in place
// (lib/Gguf/MatmulKernel.h); `qforge-bench K.mlir --weights=FILE.gguf`
// runs it on the file's bytes. A tensor qforge does not compile is refused
// by name and type.
//
// qforge-gguf --check-ggml [--ggml-dir=DIR]: loads ggml's own library
// (lib/Gguf/GgmlLibrary.h) and compares, for every type of qforge's table,
// qforge's block (elements, bytes) with what ggml's type traits say,
// read through qforge's declaration of `struct ggml_type_traits` and
// through ggml's accessor functions; exit status 1 on any difference.
//
//===----------------------------------------------------------------------===//

#include "Gguf/GgmlLibrary.h"
#include "Gguf/GgufFile.h"
#include "Gguf/MatmulKernel.h"

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
cl::opt<std::string> tensorName(
    "tensor",
    cl::desc("write the kernel y = x . W^T of this weight tensor, read in "
             "place"),
    cl::cat(category), cl::init(""));
cl::opt<int> layerOption(
    "layer",
    cl::desc("write LLaMA layer I's seven matmuls (attn_q/k/v/output, "
             "ffn_gate/up/down) and the elementwise ops between them, the "
             "weights read in place"),
    cl::value_desc("I"), cl::cat(category), cl::init(-1));
cl::opt<std::string>
    tokensOption("tokens",
                 cl::desc("--tensor, --layer: the rows of x, a number or "
                          "'dynamic' (blocks read in place at every M; "
                          "docs/gguf.md)"),
                 cl::cat(category), cl::init("1"));
cl::opt<std::string> outputFile("o",
                                cl::desc("--tensor, --layer: the output file"),
                                cl::value_desc("file"), cl::cat(category),
                                cl::init("-"));
cl::opt<bool> checkGgml(
    "check-ggml",
    cl::desc("compare qforge's type table and its declarations of ggml's "
             "structs with ggml's own library, and exit"),
    cl::cat(category), cl::init(false));
cl::opt<std::string>
    ggmlDirectory("ggml-dir", cl::desc("the folder of ggml's libggml-base.so"),
                  cl::cat(category),
                  cl::init(qforge::defaultGgmlDirectory().str()));

/// The characters of a tensor name a function name keeps; others become _.
std::string functionNameOf(StringRef tensor) {
  std::string name;
  for (char c : tensor)
    name += isAlnum(c) ? c : '_';
  if (name.empty() || isDigit(name.front()))
    name = "w_" + name;
  return name;
}

int writeKernel(const qforge::gguf::File &file) {
  std::string text;
  auto write = [&](int64_t tokens) {
    if (layerOption >= 0) {
      std::string error;
      auto tensors = qforge::gguf::findLayerTensors(file, layerOption, error);
      if (!tensors) {
        errs() << inputFile << ": error: " << error << "\n";
        return false;
      }
      text = qforge::gguf::writeLayerKernel(
          *tensors, tokens, "layer_" + std::to_string(layerOption));
      return true;
    }
    const qforge::gguf::TensorInfo *tensor = file.findTensor(tensorName);
    if (!tensor) {
      errs() << inputFile << ": error: no tensor named '" << tensorName
             << "' (qforge-gguf " << inputFile << " --list)\n";
      return false;
    }
    if (std::optional<std::string> why =
            qforge::gguf::whyNotCompiled(*tensor)) {
      errs() << inputFile << ": error: " << *why << "\n";
      return false;
    }
    text = qforge::gguf::writeMatmulKernel(*tensor, tokens,
                                           functionNameOf(tensor->name));
    return true;
  };
  int64_t tokens = 0;
  if (tokensOption != "dynamic" &&
      (StringRef(tokensOption).getAsInteger(10, tokens) || tokens < 1 ||
       tokens > (int64_t(1) << 24))) {
    errs() << "qforge-gguf: error: --tokens=" << tokensOption
           << ": a number of rows from 1 to 2^24, or 'dynamic'\n";
    return 1;
  }
  if (!write(tokens))
    return 1;
  std::error_code errorCode;
  raw_fd_ostream out(outputFile, errorCode);
  if (errorCode) {
    errs() << "qforge-gguf: error: cannot write '" << outputFile
           << "': " << errorCode.message() << "\n";
    return 1;
  }
  out << text;
  out.close();
  if (out.has_error()) {
    errs() << "qforge-gguf: error: cannot write '" << outputFile
           << "': " << out.error().message() << "\n";
    out.clear_error();
    return 1;
  }
  return 0;
}

int checkAgainstGgml() {
  std::string error;
  std::optional<qforge::GgmlLibrary> ggml =
      qforge::GgmlLibrary::load(ggmlDirectory, error);
  if (!ggml) {
    errs() << "qforge-gguf: error: " << error << "\n";
    return 1;
  }
  unsigned differences = 0, checked = 0;
  for (const qforge::gguf::TensorType &type : qforge::gguf::knownTypes()) {
    qforge::GgmlLibrary::TypeReport report = ggml->describe(type.id);
    if (report.accessorName == "NONE") {
      outs() << format("%-8s id %2u: unknown to this ggml\n",
                       type.name.str().c_str(), type.id);
      continue;
    }
    ++checked;
    bool same = report.accessorName == type.name &&
                report.traitsName == type.name &&
                report.accessorBlockElements == type.blockElements &&
                report.traitsBlockElements == type.blockElements &&
                report.accessorBlockBytes == type.blockBytes &&
                report.traitsBlockBytes == type.blockBytes;
    differences += !same;
    outs() << format(
        "%-8s id %2u: qforge %3u elements %3u bytes; ggml traits "
        "%s %lld %llu, accessors %s %lld %llu; to_float %s: %s\n",
        type.name.str().c_str(), type.id, type.blockElements, type.blockBytes,
        report.traitsName.c_str(), (long long)report.traitsBlockElements,
        (unsigned long long)report.traitsBlockBytes,
        report.accessorName.c_str(), (long long)report.accessorBlockElements,
        (unsigned long long)report.accessorBlockBytes,
        report.hasToFloat ? "yes" : "no", same ? "same" : "DIFFERENT");
  }
  outs() << checked << " types checked, " << differences << " different\n";
  return differences || !checked ? 1 : 0;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "qforge GGUF reader\n");
  if (checkGgml)
    return checkAgainstGgml();
  int modes = int(list) + int(!tensorName.empty()) + int(layerOption >= 0);
  if (inputFile.empty() || modes != 1) {
    errs()
        << "qforge-gguf: error: usage: qforge-gguf FILE.gguf --list, "
           "qforge-gguf FILE.gguf --tensor=NAME|--layer=I [--tokens=M|dynamic] "
           "[-o K.mlir], or qforge-gguf --check-ggml\n";
    return 1;
  }
  std::string error;
  std::optional<qforge::gguf::File> file =
      qforge::gguf::File::open(inputFile, error);
  if (!file) {
    errs() << error << "\n";
    return 1;
  }
  if (!tensorName.empty() || layerOption >= 0)
    return writeKernel(*file);
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
