//===- GgufFile.cpp - llama.cpp's weight files, read with bounds ----------===//

#include "Gguf/GgufFile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace qforge::gguf;

// ggml's types (ggml.h, ggml-common.h): id, name, elements per block,
// bytes per block.
static const TensorType kTypes[] = {
    {0, "f32", 1, 4},         {1, "f16", 1, 2},
    {2, "q4_0", 32, 18},      {3, "q4_1", 32, 20},
    {6, "q5_0", 32, 22},      {7, "q5_1", 32, 24},
    {8, "q8_0", 32, 34},      {9, "q8_1", 32, 36},
    {10, "q2_K", 256, 84},    {11, "q3_K", 256, 110},
    {12, "q4_K", 256, 144},   {13, "q5_K", 256, 176},
    {14, "q6_K", 256, 210},   {15, "q8_K", 256, 292},
    {16, "iq2_xxs", 256, 66}, {17, "iq2_xs", 256, 74},
    {18, "iq3_xxs", 256, 98}, {19, "iq1_s", 256, 50},
    {20, "iq4_nl", 32, 18},   {21, "iq3_s", 256, 110},
    {22, "iq2_s", 256, 82},   {23, "iq4_xs", 256, 136},
    {24, "i8", 1, 1},         {25, "i16", 1, 2},
    {26, "i32", 1, 4},        {27, "i64", 1, 8},
    {28, "f64", 1, 8},        {29, "iq1_m", 256, 56},
    {30, "bf16", 1, 2},       {34, "tq1_0", 256, 54},
    {35, "tq2_0", 256, 66},   {39, "mxfp4", 32, 17},
};

std::optional<TensorType> qforge::gguf::lookupType(uint32_t id) {
  for (const TensorType &type : kTypes)
    if (type.id == id)
      return type;
  return std::nullopt;
}

llvm::ArrayRef<TensorType> qforge::gguf::knownTypes() { return kTypes; }

std::optional<TensorType> qforge::gguf::lookupType(llvm::StringRef name) {
  for (const TensorType &type : kTypes)
    if (type.name == name)
      return type;
  return std::nullopt;
}

llvm::ArrayRef<qforge::gguf::BlockField>
qforge::gguf::blockFields(uint32_t id) {
  // ggml-common.h's block_q4_0, block_q8_0, block_q4_K, block_q5_K and
  // block_q6_K.
  static const BlockField kQ40[] = {{"d", 0, 2, true}, {"qs", 2, 16}};
  static const BlockField kQ80[] = {{"d", 0, 2, true}, {"qs", 2, 32}};
  static const BlockField kQ4K[] = {{"d", 0, 2, true},
                                    {"dmin", 2, 2, true},
                                    {"scales", 4, 12},
                                    {"qs", 16, 128}};
  static const BlockField kQ5K[] = {{"d", 0, 2, true},
                                    {"dmin", 2, 2, true},
                                    {"scales", 4, 12},
                                    {"qh", 16, 32},
                                    {"qs", 48, 128}};
  static const BlockField kQ6K[] = {{"ql", 0, 128},
                                    {"qh", 128, 64},
                                    {"scales", 192, 16},
                                    {"d", 208, 2, true}};
  switch (id) {
  case 2:
    return kQ40;
  case 8:
    return kQ80;
  case 12:
    return kQ4K;
  case 13:
    return kQ5K;
  case 14:
    return kQ6K;
  default:
    return {};
  }
}

llvm::SmallVector<uint32_t, 2> qforge::gguf::halfFieldOffsets(uint32_t id) {
  llvm::SmallVector<uint32_t, 2> offsets;
  for (const BlockField &field : blockFields(id))
    if (field.half)
      offsets.push_back(field.offset);
  return offsets;
}

namespace {

// GGUF's metadata value types.
enum ValueType : uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};

/// The size of a scalar value type, 0 for string, array and unknown ones.
uint64_t scalarSize(uint32_t type) {
  switch (type) {
  case kUint8:
  case kInt8:
  case kBool:
    return 1;
  case kUint16:
  case kInt16:
    return 2;
  case kUint32:
  case kInt32:
  case kFloat32:
    return 4;
  case kUint64:
  case kInt64:
  case kFloat64:
    return 8;
  default:
    return 0;
  }
}

/// Little-endian reads at a cursor, each checked against the end.
class Reader {
public:
  Reader(llvm::StringRef bytes, std::string &error)
      : bytes(bytes), error(error) {}

  uint64_t offset() const { return position; }
  uint64_t remaining() const { return bytes.size() - position; }

  bool fail(const llvm::Twine &message, uint64_t at) {
    if (error.empty())
      error = ("at byte " + llvm::Twine(at) + ": " + message).str();
    return false;
  }
  template <typename T> bool read(T &value, const llvm::Twine &what) {
    if (remaining() < sizeof(T))
      return fail(what + " past the end of the file (" +
                      llvm::Twine(bytes.size()) + " bytes)",
                  position);
    value = 0;
    for (unsigned byte = 0; byte < sizeof(T); ++byte)
      value |= T(uint8_t(bytes[position + byte])) << (8 * byte);
    position += sizeof(T);
    return true;
  }
  bool skip(uint64_t count, const llvm::Twine &what) {
    if (remaining() < count)
      return fail(what + " (" + llvm::Twine(count) +
                      " bytes) runs past the end of the file (" +
                      llvm::Twine(bytes.size()) + " bytes)",
                  position);
    position += count;
    return true;
  }
  bool readString(std::string *value, const llvm::Twine &what) {
    uint64_t start = position, length;
    if (!read(length, what + "'s length"))
      return false;
    if (length > remaining())
      return fail(what + " of " + llvm::Twine(length) +
                      " bytes runs past the end of the file (" +
                      llvm::Twine(bytes.size()) + " bytes)",
                  start);
    if (value)
      *value = bytes.substr(position, length).str();
    position += length;
    return true;
  }

private:
  llvm::StringRef bytes;
  std::string &error;
  uint64_t position = 0;
};

} // namespace

std::optional<File> File::open(llvm::StringRef path, std::string &error) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer) {
    error =
        (path + ": error: cannot read the file: " + buffer.getError().message())
            .str();
    return std::nullopt;
  }
  return read(std::move(*buffer), path, error);
}

std::optional<File> File::read(std::unique_ptr<llvm::MemoryBuffer> buffer,
                               llvm::StringRef name, std::string &error) {
  File file;
  std::string message;
  Reader in(buffer->getBuffer(), message);
  auto failed = [&]() -> std::optional<File> {
    error = (name + ": error: " + message).str();
    return std::nullopt;
  };

  uint32_t magic;
  if (!in.read(magic, "the magic"))
    return failed();
  if (magic != 0x46554747) { // "GGUF"
    in.fail("not a GGUF file (its first 4 bytes are not 'GGUF')", 0);
    return failed();
  }
  if (!in.read(file.version, "the version"))
    return failed();
  if (file.version != 2 && file.version != 3) {
    in.fail("GGUF version " + llvm::Twine(file.version) +
                " (this reader takes versions 2 and 3)",
            4);
    return failed();
  }
  int64_t numTensors, numMetadata;
  if (!in.read(numTensors, "the tensor count") ||
      !in.read(numMetadata, "the metadata count"))
    return failed();
  // Each record takes at least a few bytes: a count the file cannot hold
  // is refused before anything is allocated for it.
  if (numTensors < 0 || uint64_t(numTensors) > in.remaining() / 24) {
    in.fail("a tensor count of " + llvm::Twine(numTensors) +
                ", more than the file can hold",
            8);
    return failed();
  }
  if (numMetadata < 0 || uint64_t(numMetadata) > in.remaining() / 13) {
    in.fail("a metadata count of " + llvm::Twine(numMetadata) +
                ", more than the file can hold",
            16);
    return failed();
  }
  file.numMetadata = numMetadata;

  for (int64_t index = 0; index < numMetadata; ++index) {
    std::string key;
    uint64_t keyOffset = in.offset();
    uint32_t type;
    if (!in.readString(&key, "a metadata key") ||
        !in.read(type, llvm::Twine("the type of '") + key + "'"))
      return failed();
    uint64_t valueOffset = in.offset();
    if (key == "general.alignment") {
      uint32_t alignment;
      if (type != kUint32) {
        in.fail("general.alignment is not a u32", keyOffset);
        return failed();
      }
      if (!in.read(alignment, "general.alignment"))
        return failed();
      if (alignment == 0 || !llvm::isPowerOf2_32(alignment)) {
        in.fail("general.alignment " + llvm::Twine(alignment) +
                    " is not a power of two",
                valueOffset);
        return failed();
      }
      file.alignment = alignment;
      continue;
    }
    if (type == kString) {
      if (!in.readString(key == "general.architecture" ? &file.architecture
                                                       : nullptr,
                         llvm::Twine("the value of '") + key + "'"))
        return failed();
      continue;
    }
    if (uint64_t size = scalarSize(type)) {
      if (!in.skip(size, llvm::Twine("the value of '") + key + "'"))
        return failed();
      continue;
    }
    if (type != kArray) {
      in.fail(llvm::Twine("'") + key + "' has the unknown value type " +
                  llvm::Twine(type),
              keyOffset);
      return failed();
    }
    uint32_t elementType;
    uint64_t count;
    if (!in.read(elementType,
                 llvm::Twine("the element type of '") + key + "'") ||
        !in.read(count, llvm::Twine("the length of '") + key + "'"))
      return failed();
    if (elementType == kString) {
      if (count > in.remaining() / 8) {
        in.fail(llvm::Twine("'") + key + "' holds " + llvm::Twine(count) +
                    " strings, more than the file can hold",
                valueOffset);
        return failed();
      }
      for (uint64_t element = 0; element < count; ++element)
        if (!in.readString(nullptr, llvm::Twine("a string of '") + key + "'"))
          return failed();
      continue;
    }
    uint64_t size = scalarSize(elementType);
    if (!size) {
      in.fail(llvm::Twine("'") + key + "' is an array of the value type " +
                  llvm::Twine(elementType) +
                  " (GGUF arrays hold scalars or strings)",
              valueOffset);
      return failed();
    }
    if (count > in.remaining() / size) {
      in.fail(llvm::Twine("'") + key + "' holds " + llvm::Twine(count) +
                  " elements, more than the file can hold",
              valueOffset);
      return failed();
    }
    if (!in.skip(count * size, llvm::Twine("the elements of '") + key + "'"))
      return failed();
  }

  llvm::StringSet<> names;
  for (int64_t index = 0; index < numTensors; ++index) {
    TensorInfo tensor;
    tensor.recordOffset = in.offset();
    uint32_t numDims;
    if (!in.readString(&tensor.name, "a tensor name") ||
        !in.read(numDims, llvm::Twine("the dims of '") + tensor.name + "'"))
      return failed();
    if (!names.insert(tensor.name).second) {
      in.fail(llvm::Twine("a second tensor named '") + tensor.name + "'",
              tensor.recordOffset);
      return failed();
    }
    if (numDims == 0 || numDims > 4) {
      in.fail(llvm::Twine("tensor '") + tensor.name + "' has " +
                  llvm::Twine(numDims) + " dims (ggml tensors have 1 to 4)",
              tensor.recordOffset);
      return failed();
    }
    uint64_t elements = 1;
    for (uint32_t dim = 0; dim < numDims; ++dim) {
      int64_t size;
      if (!in.read(size, llvm::Twine("a dim of '") + tensor.name + "'"))
        return failed();
      if (size < 0 ||
          (size > 0 && elements > uint64_t(INT64_MAX) / uint64_t(size))) {
        in.fail(llvm::Twine("tensor '") + tensor.name + "' has a dim of " +
                    llvm::Twine(size) + " (negative, or too many elements)",
                tensor.recordOffset);
        return failed();
      }
      elements *= uint64_t(size);
      tensor.shape.push_back(size);
    }
    uint64_t relativeOffset;
    if (!in.read(tensor.typeId,
                 llvm::Twine("the type of '") + tensor.name + "'") ||
        !in.read(relativeOffset,
                 llvm::Twine("the offset of '") + tensor.name + "'"))
      return failed();
    std::optional<TensorType> type = lookupType(tensor.typeId);
    if (!type) {
      in.fail(llvm::Twine("tensor '") + tensor.name +
                  "' has the unknown ggml type " + llvm::Twine(tensor.typeId),
              tensor.recordOffset);
      return failed();
    }
    if (tensor.shape[0] % type->blockElements != 0) {
      in.fail(llvm::Twine("tensor '") + tensor.name + "' of type " +
                  type->name + ": ne[0] = " + llvm::Twine(tensor.shape[0]) +
                  " is not a whole number of its blocks of " +
                  llvm::Twine(type->blockElements),
              tensor.recordOffset);
      return failed();
    }
    // Bytes: blocks times their size, checked for overflow.
    uint64_t blocks = elements / type->blockElements;
    if (blocks > UINT64_MAX / type->blockBytes) {
      in.fail(llvm::Twine("tensor '") + tensor.name + "' is too large",
              tensor.recordOffset);
      return failed();
    }
    tensor.bytes = blocks * type->blockBytes;
    tensor.fileOffset = relativeOffset; // made absolute below
    file.tensors.push_back(std::move(tensor));
  }

  // The data section starts at the next multiple of the alignment.
  uint64_t dataStart = llvm::alignTo(in.offset(), file.alignment);
  uint64_t size = buffer->getBufferSize();
  for (TensorInfo &tensor : file.tensors) {
    uint64_t relativeOffset = tensor.fileOffset;
    if (relativeOffset % file.alignment != 0) {
      in.fail(llvm::Twine("tensor '") + tensor.name +
                  "' starts at data offset " + llvm::Twine(relativeOffset) +
                  ", not a multiple of the " + "alignment " +
                  llvm::Twine(file.alignment),
              tensor.recordOffset);
      return failed();
    }
    if (dataStart > size || relativeOffset > size - dataStart ||
        tensor.bytes > size - dataStart - relativeOffset) {
      in.fail(llvm::Twine("tensor '") + tensor.name + "' (" +
                  llvm::Twine(tensor.bytes) + " bytes at data offset " +
                  llvm::Twine(relativeOffset) +
                  ") runs past the end of the file (" + llvm::Twine(size) +
                  " bytes, data from byte " + llvm::Twine(dataStart) + ")",
              tensor.recordOffset);
      return failed();
    }
    tensor.fileOffset = dataStart + relativeOffset;
  }
  file.buffer = std::move(buffer);
  return file;
}

const TensorInfo *File::findTensor(llvm::StringRef name) const {
  for (const TensorInfo &tensor : tensors)
    if (tensor.name == name)
      return &tensor;
  return nullptr;
}

llvm::ArrayRef<uint8_t> File::getData(const TensorInfo &tensor) const {
  return llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(buffer->getBufferStart()) +
          tensor.fileOffset,
      tensor.bytes);
}
