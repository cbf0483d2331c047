//===- GgmlLibrary.h - ggml's own library, loaded at run time ---*- C++ -*-===//
//
// The bench checks a GGUF-block kernel against ggml itself: the weights are
// dequantized by ggml's `to_float` of their type (ggml_get_type_traits) and
// multiplied in f64 (`qforge-bench --oracle=ggml`, docs/gguf.md). The
// library is the pinned prebuilt of the npm package @node-llama-cpp/linux-x64
// that scripts/setup.sh unpacks into the build folder; it ships no headers,
// so the few declarations used are written here for that version (ggml.h of
// ggml 0.5.0), and checkTypeTraits compares what the declared struct reads
// with what the library's own accessors return.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_GGUF_GGMLLIBRARY_H
#define QFORGE_GGUF_GGMLLIBRARY_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qforge {

/// Where scripts/setup.sh puts ggml's libraries (empty when the build does
/// not know).
llvm::StringRef defaultGgmlDirectory();

class GgmlLibrary {
public:
  /// Loads `directory`/libggml-base.so; std::nullopt with `error` when it
  /// is missing or lacks a function used here.
  static std::optional<GgmlLibrary> load(llvm::StringRef directory,
                                         std::string &error);

  /// What the library says of ggml type `typeId`, read through the
  /// declared `ggml_type_traits` and through its accessors.
  struct TypeReport {
    std::string traitsName, accessorName;
    int64_t traitsBlockElements = 0, accessorBlockElements = 0;
    uint64_t traitsBlockBytes = 0, accessorBlockBytes = 0;
    bool hasToFloat = false;
  };
  TypeReport describe(uint32_t typeId) const;

  /// Dequantizes `elements` weights of type `typeId` (a whole number of
  /// its blocks) from `blocks` into `out` with ggml's to_float; false with
  /// `error` when the type has none.
  bool dequantize(uint32_t typeId, const void *blocks, float *out,
                  int64_t elements, std::string &error) const;

  /// Loads ggml's CPU backend beside the base library: `variant` names a
  /// libggml-cpu-<variant>.so of the package, or "" for the one whose
  /// ggml_backend_score is highest on this CPU (as ggml's loader picks).
  /// Needed by GgmlMatmul.
  bool loadCpuBackend(llvm::StringRef variant, std::string &error);
  llvm::StringRef getCpuVariant() const { return cpuVariant; }

private:
  friend class GgmlMatmul;
  struct Functions;
  std::string directory, cpuVariant;
  std::shared_ptr<void> handle, cpuHandle;
  std::shared_ptr<Functions> functions;
};

/// ggml's own CPU matmul, y = x . W^T (ggml_mul_mat on tensors in a plain
/// CPU buffer, the graph computed by ggml's CPU backend): the peer the bench
/// times beside a kernel on the same bytes (`qforge-bench --peer=ggml`).
/// `copies` sets of W, x and y, each in its own ggml context, for a cold
/// regime that rotates over more than the last-level cache holds.
class GgmlMatmul {
public:
  static std::unique_ptr<GgmlMatmul> create(const GgmlLibrary &library,
                                            uint32_t typeId, int64_t rows,
                                            int64_t depth, int64_t tokens,
                                            size_t copies, int threads,
                                            std::string &error);
  ~GgmlMatmul();

  size_t getNumCopies() const { return copies.size(); }
  /// W of copy `index`: rows x depth weights in the type's blocks.
  void *getWeights(size_t index);
  uint64_t getWeightBytes() const { return weightBytes; }
  /// x of copy `index`: tokens x depth floats.
  float *getActivation(size_t index);
  /// y of copy `index`: tokens x rows floats, after run(index).
  const float *getResult(size_t index) const;
  /// One matmul on copy `index`; false when ggml reports a failure.
  bool run(size_t index);

private:
  GgmlMatmul() = default;
  struct Copy {
    void *context, *weights, *activation, *result, *graph;
  };
  const GgmlLibrary *library = nullptr;
  void *backend = nullptr;
  std::vector<Copy> copies;
  uint64_t weightBytes = 0;
};

} // namespace qforge

#endif // QFORGE_GGUF_GGMLLIBRARY_H
