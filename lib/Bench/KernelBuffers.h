//===- KernelBuffers.h - inputs and outputs of a kernel call ----*- C++ -*-===//
//
// Buffers for one call of a compiled kernel through its C interface
// (docs/abi.md): one 64-byte aligned buffer and one memref descriptor per
// tensor argument and per result, and the packed argument array that
// ExecutionEngine's `_mlir__mlir_ciface_<f>` wrapper takes.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_BENCH_KERNELBUFFERS_H
#define QFORGE_BENCH_KERNELBUFFERS_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace qforge {

/// One tensor's storage and its memref descriptor.
class TensorBuffer {
public:
  explicit TensorBuffer(mlir::RankedTensorType type);
  TensorBuffer(TensorBuffer &&) = default;

  mlir::RankedTensorType getType() const { return type; }
  size_t getNumBytes() const { return numBytes; }
  void *getData() {
    return borrowed ? const_cast<void *>(borrowed) : data.get();
  }
  const void *getData() const { return borrowed ? borrowed : data.get(); }
  /// The descriptor {allocated, aligned, offset, sizes..., strides...}.
  void *getDescriptor() { return descriptor.data(); }

  /// Deterministic pseudo-random contents suited to the element type:
  /// integers uniform over all bit patterns of their width, floats uniform in
  /// [-1, 1).
  void fillRandom(uint64_t seed);
  /// Floats of the form q / 128, q an integer in [-127, 127], with |q| = 127
  /// at every `extremePeriod`-th element (row-major): whatever the group of
  /// at least that many consecutive elements (aligned to it when smaller
  /// than 8), its largest magnitude is 127 / 128, so a per-group int8
  /// quantization (scale amax / 127) represents every value exactly -- an
  /// int8-activation kernel then owes the reference the f32 sums, not sums
  /// within a quantization error. Exact in f16 and bf16 too.
  void fillInt8Representable(uint64_t seed, int64_t extremePeriod = 8);
  /// fillRandom, then in every block of `blockBytes` bytes the f16 fields
  /// at `halfOffsets` set to finite halves uniform in [-1/64, 1/64) (the
  /// scales of a GGUF block; random bytes would make 1 in 32 of them
  /// infinite or NaN). For a byte tensor holding whole blocks.
  void fillBlocks(uint64_t seed, uint32_t blockBytes,
                  llvm::ArrayRef<uint32_t> halfOffsets);
  void copyFrom(const TensorBuffer &other);
  /// Reads `external` -- getNumBytes() bytes the caller keeps alive and
  /// nobody writes, e.g. a tensor of a mapped GGUF file -- in place of its
  /// own storage, which it frees: an input bound without a copy.
  void borrow(const void *external);
  /// Element `index` (row-major) as double; floats and integers (signless
  /// integers read as signed).
  double getAsDouble(size_t index) const;
  size_t getNumElements() const { return numElements; }

private:
  struct FreeDeleter {
    void operator()(void *pointer) const { std::free(pointer); }
  };
  mlir::RankedTensorType type;
  size_t numElements = 0, elementBytes = 0, numBytes = 0;
  std::unique_ptr<void, FreeDeleter> data;
  /// The caller's bytes read in place of `data` (borrow).
  const void *borrowed = nullptr;
  std::vector<int64_t> descriptor;
};

/// Every buffer of one call: the inputs, then the results (out-params).
class KernelCall {
public:
  /// Fails (returns false, sets `error`) on argument types the benchmark
  /// cannot build (scalars, unranked or dynamic tensors).
  static bool create(mlir::FunctionType type, KernelCall &call,
                     std::string &error);
  /// The same checks without allocating, for a benchmark that holds
  /// `callsHeld` calls' buffers at once (the raw inputs, the kernel's, the
  /// reference's): refuses, before any compile, what this machine's memory
  /// cannot hold.
  static bool check(mlir::FunctionType type, unsigned callsHeld,
                    std::string &error);

  std::vector<TensorBuffer> inputs, results;
  size_t getInputBytes() const;
  /// Pointers for `void (*)(void **)`: element i points to the i-th
  /// descriptor pointer. Valid while this object lives and is not moved.
  void **getPackedArguments();

private:
  static bool build(mlir::FunctionType type, KernelCall *call,
                    unsigned callsHeld, std::string &error);
  std::vector<void *> descriptorPointers, packed;
};

} // namespace qforge

#endif // QFORGE_BENCH_KERNELBUFFERS_H
