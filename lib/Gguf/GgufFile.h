//===- GgufFile.h - llama.cpp's weight files, read with bounds --*- C++ -*-===//
//
// A GGUF file (version 2 or 3; ../shared/design/gguf-blocks.md): a header,
// key/value metadata, one record per tensor (name, shape with ne[0] the
// contiguous dim, ggml type, offset in the data section), then the data,
// aligned to `general.alignment` (32 by default). The file is mapped, not
// copied, and every read is checked against its size: a malformed file
// (wrong magic or version, truncated, a count or length larger than the
// file can hold, an offset or extent past its end, a shape that is not a
// whole number of its type's blocks) is an error naming the byte offset --
// never a crash, and never an allocation the file's size does not justify.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_GGUF_GGUFFILE_H
#define QFORGE_GGUF_GGUFFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qforge::gguf {

/// A ggml tensor type: its id in the file, name, and block (elements and
/// bytes; 1 element for the plain types).
struct TensorType {
  uint32_t id;
  llvm::StringRef name;
  uint32_t blockElements;
  uint32_t blockBytes;
};

/// The types whose block size is known here, by id; std::nullopt for others.
std::optional<TensorType> lookupType(uint32_t id);
/// Every type of the table, by id.
llvm::ArrayRef<TensorType> knownTypes();
/// The same, by name ("q8_0").
std::optional<TensorType> lookupType(llvm::StringRef name);
/// A member of a type's block struct (ggml-common.h): its name, where it
/// starts in the block, how many bytes it takes, and whether it is an f16
/// (the scales `d`, and `dmin` in q4_K and q5_K).
struct BlockField {
  llvm::StringLiteral name;
  uint32_t offset, bytes;
  bool half = false;
};
/// The fields of a block of the types qforge compiles with their fields
/// apart (q4_0, q8_0, q4_K, q5_K, q6_K: `<type>.<name>` arguments,
/// examples/gen_gguf_kernel.py --fields), in block order; empty for the
/// others.
llvm::ArrayRef<BlockField> blockFields(uint32_t id);
/// The byte offsets in a block of its f16 fields (blockFields' halves);
/// empty for the types blockFields does not know. Every other bit pattern
/// of a block is valid quants or sub-block scales: a block filled at random
/// with these fields set to finite halves is one a file may hold.
llvm::SmallVector<uint32_t, 2> halfFieldOffsets(uint32_t id);

struct TensorInfo {
  std::string name;
  /// ne[0] (the contiguous dim, K for a weight) first.
  llvm::SmallVector<int64_t, 4> shape;
  uint32_t typeId;
  /// Offset of the tensor's first byte from the start of the file.
  uint64_t fileOffset;
  /// Its size in bytes (a file whose tensor has a type unknown here is
  /// refused).
  uint64_t bytes;
  /// Where its record starts in the file (for messages).
  uint64_t recordOffset;
};

class File {
public:
  /// Maps and reads `path`; std::nullopt with `error` ("<path>: error: at
  /// byte N: ...") when the file cannot be read or is malformed.
  static std::optional<File> open(llvm::StringRef path, std::string &error);
  /// Reads a file already in memory (`name` for messages).
  static std::optional<File> read(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                  llvm::StringRef name, std::string &error);

  uint32_t getVersion() const { return version; }
  uint64_t getAlignment() const { return alignment; }
  uint64_t getNumMetadata() const { return numMetadata; }
  /// `general.architecture`, when present.
  llvm::StringRef getArchitecture() const { return architecture; }
  llvm::ArrayRef<TensorInfo> getTensors() const { return tensors; }
  const TensorInfo *findTensor(llvm::StringRef name) const;
  /// The bytes of `tensor` (in the mapping).
  llvm::ArrayRef<uint8_t> getData(const TensorInfo &tensor) const;

private:
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  uint32_t version = 0;
  uint64_t alignment = 32;
  uint64_t numMetadata = 0;
  std::string architecture;
  std::vector<TensorInfo> tensors;
};

} // namespace qforge::gguf

#endif // QFORGE_GGUF_GGUFFILE_H
