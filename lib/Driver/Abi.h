//===- Abi.h - the C interface of a compiled kernel -------------*- C++ -*-===//
//
// A kernel `f(tensor args...) -> (tensor results...)` compiles to
//   void _mlir_ciface_f(memref descriptors of the args..., of the results...)
// where each descriptor is {T *allocated, T *aligned, int64_t offset,
// int64_t sizes[rank], int64_t strides[rank]}, results are written into
// caller-owned buffers, and scalars are passed by value (docs/abi.md).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_ABI_H
#define QFORGE_DRIVER_ABI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

namespace qforge {

/// The `<f>_pack_weights` a strategy split off `kernel`
/// (transform.qforge.split_parameter_packing), named by its
/// `qforge.pack_weights` attribute; null when there is none.
mlir::func::FuncOp getPackWeightsFunction(mlir::func::FuncOp kernel);

/// The version of qforge's packed layouts, bumped whenever a shipped
/// strategy packs differently (docs/abi.md lists the changes): 2 since the
/// int8 decode packs rows by 32 (two 64-byte lines), as the int8 prefill does.
inline constexpr int kPackedLayoutVersion = 2;

/// A fingerprint of the packing `packWeights` does (its body and its
/// callees', locations aside): equal for builds that pack alike.
uint64_t fingerprintPacking(mlir::func::FuncOp packWeights);

/// Writes a C header declaring the entry point of `kernel` (checked by
/// findKernel) and the descriptor structs it takes; and `packWeights`'s,
/// when not null (a kernel whose strategy split its parameter packing off,
/// docs/abi.md).
void writeCHeader(mlir::func::FuncOp kernel, mlir::func::FuncOp packWeights,
                  llvm::raw_ostream &os);

/// Records `type`, the C interface's signature of the kernel `kernelName`
/// (after its script), in the lowered module as the constant string
/// `_qforge_abi_<kernelName>` (the printed function type): a tool that
/// loads the compiled library (qforge-ab) checks what the kernel takes
/// before it calls it.
void recordSignature(mlir::ModuleOp lowered, llvm::StringRef kernelName,
                     mlir::FunctionType type);

} // namespace qforge

#endif // QFORGE_DRIVER_ABI_H
