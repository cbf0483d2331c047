//===- KernelBuffers.cpp - inputs and outputs of a kernel call ------------===//

#include "Bench/KernelBuffers.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <random>
#include <unistd.h>

using namespace mlir;

qforge::TensorBuffer::TensorBuffer(RankedTensorType tensorType)
    : type(tensorType) {
  // Element and byte counts with overflow checks: a shape such as
  // 2^62 x 32 x 128 has no size_t count, and is refused, not wrapped.
  numElements = 1;
  bool overflow = false;
  for (int64_t size : tensorType.getShape())
    overflow |= size < 0 ||
                __builtin_mul_overflow(numElements, size_t(size), &numElements);
  unsigned bits = tensorType.getElementTypeBitWidth();
  elementBytes = std::max<unsigned>(1, (bits + 7) / 8);
  overflow |= __builtin_mul_overflow(numElements, elementBytes, &numBytes);
  // 64-byte alignment: whole cache lines, aligned AVX-512 loads.
  size_t allocated = 0;
  overflow |= __builtin_add_overflow(numBytes, size_t(63), &allocated);
  if (overflow) {
    numElements = numBytes = 0;
    return;
  }
  allocated = std::max<size_t>(64, allocated / 64 * 64);
  data.reset(std::aligned_alloc(64, allocated));
  if (!data) {
    numElements = numBytes = 0;
    return;
  }
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

/// The 16-bit float formats: their bits from a double (rounded to nearest,
/// ties to even, as arith.truncf does) and back (exact).
static const llvm::fltSemantics *halfSemantics(Type element) {
  if (element.isF16())
    return &llvm::APFloat::IEEEhalf();
  if (element.isBF16())
    return &llvm::APFloat::BFloat();
  return nullptr;
}
static uint16_t toHalfBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat converted(value);
  bool losesInfo;
  converted.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return uint16_t(converted.bitcastToAPInt().getZExtValue());
}
static double fromHalfBits(uint16_t bits, const llvm::fltSemantics &semantics) {
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

void qforge::TensorBuffer::fillRandom(uint64_t seed) {
  std::mt19937_64 generator(seed);
  Type element = type.getElementType();
  if (const llvm::fltSemantics *half = halfSemantics(element)) {
    // Uniform in [-1, 1), then rounded to the format: the kernel and the
    // reference read the same rounded values.
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    auto *values = static_cast<uint16_t *>(data.get());
    for (size_t i = 0; i < numElements; ++i)
      values[i] = toHalfBits(uniform(generator), *half);
  } else if (element.isF32()) {
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

void qforge::TensorBuffer::fillBlocks(uint64_t seed, uint32_t blockBytes,
                                      llvm::ArrayRef<uint32_t> halfOffsets) {
  fillRandom(seed);
  std::mt19937_64 generator(seed ^ 0x9e3779b97f4a7c15ull);
  std::uniform_real_distribution<float> uniform(-1.0f / 64, 1.0f / 64);
  auto *bytes = static_cast<uint8_t *>(data.get());
  for (size_t block = 0; block + blockBytes <= numBytes; block += blockBytes)
    for (uint32_t offset : halfOffsets) {
      uint16_t bits = toHalfBits(uniform(generator), llvm::APFloat::IEEEhalf());
      bytes[block + offset] = uint8_t(bits);
      bytes[block + offset + 1] = uint8_t(bits >> 8);
    }
}

void qforge::TensorBuffer::fillInt8Representable(uint64_t seed,
                                                 int64_t extremePeriod) {
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<int> level(-127, 127);
  Type element = type.getElementType();
  const llvm::fltSemantics *half = halfSemantics(element);
  for (size_t i = 0; i < numElements; ++i) {
    int q = level(generator);
    if (i % extremePeriod == 0)
      q = q < 0 ? -127 : 127;
    float value = float(q) / 128.0f;
    if (half)
      static_cast<uint16_t *>(data.get())[i] = toHalfBits(value, *half);
    else if (element.isF32())
      static_cast<float *>(data.get())[i] = value;
    else if (element.isF64())
      static_cast<double *>(data.get())[i] = value;
  }
}

void qforge::TensorBuffer::borrow(const void *external) {
  // The kernel only reads its inputs (they are marked read-only).
  data.reset();
  borrowed = external;
  descriptor[0] = reinterpret_cast<int64_t>(external);
  descriptor[1] = reinterpret_cast<int64_t>(external);
}

void qforge::TensorBuffer::copyFrom(const TensorBuffer &other) {
  if (type.getElementType() == other.type.getElementType()) {
    std::memcpy(data.get(), other.getData(), numBytes);
    return;
  }
  // Another float type (the reference reads an f16 or bf16 input widened to
  // f32): the same values, converted exactly.
  Type element = type.getElementType();
  for (size_t i = 0; i < numElements; ++i) {
    double value = other.getAsDouble(i);
    if (element.isF32())
      static_cast<float *>(data.get())[i] = float(value);
    else if (element.isF64())
      static_cast<double *>(data.get())[i] = value;
    else if (const llvm::fltSemantics *half = halfSemantics(element))
      static_cast<uint16_t *>(data.get())[i] = toHalfBits(value, *half);
  }
}

double qforge::TensorBuffer::getAsDouble(size_t index) const {
  Type element = type.getElementType();
  const char *base = static_cast<const char *>(getData());
  if (element.isF32())
    return reinterpret_cast<const float *>(base)[index];
  if (element.isF64())
    return reinterpret_cast<const double *>(base)[index];
  if (const llvm::fltSemantics *half = halfSemantics(element))
    return fromHalfBits(reinterpret_cast<const uint16_t *>(base)[index], *half);
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
  return build(type, &call, 1, error);
}

bool qforge::KernelCall::check(FunctionType type, unsigned callsHeld,
                               std::string &error) {
  return build(type, nullptr, callsHeld, error);
}

bool qforge::KernelCall::build(FunctionType type, KernelCall *call,
                               unsigned callsHeld, std::string &error) {
  // What fillRandom and getAsDouble handle: f16, bf16, f32, f64, and
  // integers of 8, 16, 32 or 64 bits.
  auto supported = [](Type element) {
    if (element.isF16() || element.isBF16() || element.isF32() ||
        element.isF64())
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
            " is not a static tensor of f16, bf16, f32, f64 or 8/16/32/64-bit "
            "integers; qforge-bench cannot generate and compare it";
    return false;
  };
  // Every buffer must fit in this machine's memory: an allocation the
  // kernel over-commits would only fail later, in a page fault.
  const double physicalBytes =
      double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  double totalBytes = 0;
  auto allocate = [&](Type t, const char *what, size_t index,
                      std::vector<TensorBuffer> *buffers) {
    auto tensor = cast<RankedTensorType>(t);
    double bytes = double(tensor.getElementTypeBitWidth() + 7) / 8;
    for (int64_t size : tensor.getShape())
      bytes *= double(size);
    totalBytes += bytes * callsHeld;
    if (physicalBytes > 0 && totalBytes > physicalBytes) {
      error = std::string(what) + " #" + std::to_string(index) + " ('" +
              llvm::formatv("{0}", t).str() + "') brings the buffers of " +
              (callsHeld > 1 ? std::to_string(callsHeld) + " calls (" +
                                   "the raw inputs, the kernel's and the "
                                   "reference's)"
                             : std::string("one call")) +
              " to " + llvm::formatv("{0:g}", totalBytes / (1 << 30)).str() +
              " GiB, more than this machine's " +
              llvm::formatv("{0:g}", physicalBytes / (1 << 30)).str() +
              " GiB of memory";
      return false;
    }
    if (!buffers)
      return true;
    buffers->emplace_back(tensor);
    if (!buffers->back().getData()) {
      error = std::string("cannot allocate ") + what + " #" +
              std::to_string(index) + " ('" + llvm::formatv("{0}", t).str() +
              "')";
      return false;
    }
    return true;
  };
  for (auto [index, input] : llvm::enumerate(type.getInputs()))
    if (!check(input, "argument", index) ||
        !allocate(input, "argument", index, call ? &call->inputs : nullptr))
      return false;
  for (auto [index, result] : llvm::enumerate(type.getResults()))
    if (!check(result, "result", index) ||
        !allocate(result, "result", index, call ? &call->results : nullptr))
      return false;
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
