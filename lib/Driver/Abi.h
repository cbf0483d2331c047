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

/// Writes a C header declaring the entry point of `kernel` (checked by
/// findKernel) and the descriptor structs it takes; and `packWeights`'s,
/// when not null (a kernel whose strategy split its parameter packing off,
/// docs/abi.md).
void writeCHeader(mlir::func::FuncOp kernel, mlir::func::FuncOp packWeights,
                  llvm::raw_ostream &os);

} // namespace qforge

#endif // QFORGE_DRIVER_ABI_H
