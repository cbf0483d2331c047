//===- KernelBuffers.cpp - inputs and outputs of a kernel call ------------===//

#include "Bench/KernelBuffers.h"

#include <cstring>
#include <random>

using namespace mlir;

qforge::TensorBuffer::TensorBuffer(RankedTensorType tensorType)
    : type(tensorType) {
  numElements = tensorType.getNumElements();
  unsigned bits = tensorType.getElementTypeBitWidth();
  elementBytes = std::max<unsigned>(1, (bits + 7) / 8);
  numBytes = numElements * elementBytes;
  // 64-byte alignment: whole cache lines, aligned AVX-512 loads.
  size_t allocated = std::max<size_t>(64, (numBytes + 63) / 64 * 64);
  data.reset(std::aligned_alloc(64, allocated));
  std::memset(data.get(), 0, allocated);

  int64_t rank = tensorType.getRank();
  descriptor.assign(3 + 2 * rank, 0);
  descriptor[0] = reinterpret_cast<int64_t>(data.get());
  descriptor[1] = reinterpret_cast<int64_t>(data.get());
  int64_t stride = 1;
  for (int64_t dim = rank - 1; dim >= 0; --dim) {
    descriptor[3 + dim] = tensorType.getDimSize(dim);
    descriptor[3 + rank + dim] = stride;
    stride *= tensorType.getDimSize(dim);
  }
}

void qforge::TensorBuffer::fillRandom(uint64_t seed) {
  std::mt19937_64 generator(seed);
  Type element = type.getElementType();
  if (element.isF32()) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    auto *values = static_cast<float *>(data.get());
    for (size_t i = 0; i < numElements; ++i)
      values[i] = uniform(generator);
  } else if (element.isF64()) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto *values = static_cast<double *>(data.get());
    for (size_t i = 0; i < numElements; ++i)
      values[i] = uniform(generator);
  } else {
    // Integers (and any other type): every bit pattern equally likely.
    auto *bytes = static_cast<uint8_t *>(data.get());
    size_t i = 0;
    for (; i + 8 <= numBytes; i += 8) {
      uint64_t word = generator();
      std::memcpy(bytes + i, &word, 8);
    }
    for (uint64_t word = generator(); i < numBytes; ++i, word >>= 8)
      bytes[i] = static_cast<uint8_t>(word);
  }
}

void qforge::TensorBuffer::copyFrom(const TensorBuffer &other) {
  std::memcpy(data.get(), other.data.get(), numBytes);
}

double qforge::TensorBuffer::getAsDouble(size_t index) const {
  Type element = type.getElementType();
  const char *base = static_cast<const char *>(data.get());
  if (element.isF32())
    return reinterpret_cast<const float *>(base)[index];
  if (element.isF64())
    return reinterpret_cast<const double *>(base)[index];
  switch (elementBytes) {
  case 1:
    return reinterpret_cast<const int8_t *>(base)[index];
  case 2:
    return reinterpret_cast<const int16_t *>(base)[index];
  case 4:
    return reinterpret_cast<const int32_t *>(base)[index];
  default:
    return static_cast<double>(reinterpret_cast<const int64_t *>(base)[index]);
  }
}

bool qforge::KernelCall::create(FunctionType type, KernelCall &call,
                                std::string &error) {
  // What fillRandom and getAsDouble handle: f32, f64, and integers of
  // 8, 16, 32 or 64 bits.
  auto supported = [](Type element) {
    if (element.isF32() || element.isF64())
      return true;
    auto integer = dyn_cast<IntegerType>(element);
    return integer &&
           llvm::is_contained({8u, 16u, 32u, 64u}, integer.getWidth());
  };
  auto check = [&](Type t, const char *what, size_t index) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (tensor && tensor.hasStaticShape() && supported(tensor.getElementType()))
      return true;
    error = std::string(what) + " #" + std::to_string(index) +
            " is not a static tensor of f32, f64 or 8/16/32/64-bit "
            "integers; qforge-bench cannot generate and compare it";
    return false;
  };
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    if (!check(input, "argument", index))
      return false;
    call.inputs.emplace_back(cast<RankedTensorType>(input));
  }
  for (auto [index, result] : llvm::enumerate(type.getResults())) {
    if (!check(result, "result", index))
      return false;
    call.results.emplace_back(cast<RankedTensorType>(result));
  }
  return true;
}

size_t qforge::KernelCall::getInputBytes() const {
  size_t bytes = 0;
  for (const TensorBuffer &input : inputs)
    bytes += input.getNumBytes();
  return bytes;
}

void **qforge::KernelCall::getPackedArguments() {
  descriptorPointers.clear();
  for (TensorBuffer &buffer : inputs)
    descriptorPointers.push_back(buffer.getDescriptor());
  for (TensorBuffer &buffer : results)
    descriptorPointers.push_back(buffer.getDescriptor());
  packed.clear();
  for (void *&pointer : descriptorPointers)
    packed.push_back(&pointer);
  return packed.data();
}
