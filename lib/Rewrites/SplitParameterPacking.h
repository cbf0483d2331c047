//===- SplitParameterPacking.h - pack model parameters once -----*- C++ -*-===//
//
// Weights, scales and zero-points are model parameters: packing them belongs
// in a one-time step. This rewrite moves the packs of a kernel's parameters
// into a separate public function, `<f>_pack_weights`, and makes `<f>` take
// the packed tensors in place of the raw ones (docs/abi.md).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_SPLITPARAMETERPACKING_H
#define QFORGE_REWRITES_SPLITPARAMETERPACKING_H

#include "Abi/AbiAttributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace qforge {

/// The name of `kernel`'s one-time packing function, `<kernel>_pack_weights`
/// (docs/abi.md).
std::string getPackWeightsName(llvm::StringRef kernel);

/// Whether `function` is such a packing function (by its name).
bool isPackWeightsFunction(mlir::func::FuncOp function);

/// How `<f>`'s arguments follow from its raw ones and the results of
/// `<f>_pack_weights`, whose `qforge.prepacked_arguments` gives, per result,
/// the raw argument it is packed from (docs/abi.md). The first result of a
/// raw argument takes its place in `<f>`; a further one (a block format's
/// quants and scales, packed apart from its blocks) follows `<f>`'s raw
/// arguments, in the order of the results.
struct PackedSignature {
  /// The raw argument positions `<f>_pack_weights` takes, ascending.
  llvm::SmallVector<int64_t> inputs;
  /// Per result of `<f>_pack_weights`, the position of `<f>`'s argument it
  /// is.
  llvm::SmallVector<int64_t> kernelIndices;
  /// How many raw arguments `<f>` had.
  unsigned rawArguments = 0;
};
PackedSignature getPackedSignature(llvm::ArrayRef<int64_t> resultPositions,
                                   unsigned numRawArguments);
/// The same from `<f>`'s packed signature: `numKernelArguments` counts its
/// raw arguments and the further packed tensors after them.
PackedSignature
getPackedSignatureOfKernel(llvm::ArrayRef<int64_t> resultPositions,
                           unsigned numKernelArguments);

/// The function argument `pack` packs: read directly, through tensor views
/// (free reshapes a normalized producer form puts between an N x G argument
/// and its N x G x 1 use, a slice of a block format's quants), or through
/// side-effect-free computations on that argument alone (a block format's
/// f16 scale joined from two of its bytes). Null when the pack reads
/// anything else or several arguments.
mlir::BlockArgument getPackedArgument(mlir::linalg::PackOp pack);

/// The one function argument `value` is computed from alone, as the
/// computations that move into the packing are (tensor views, side-effect
/// free generics, constants); null when it reads anything else or several
/// arguments. A normalization that leaves a parameter's computation for
/// the packing to take checks it first.
mlir::BlockArgument getParameterArgument(mlir::Value value);

/// Checks that every pack reads an argument of `kernel` that nothing but the
/// packing uses (several packs may read one: each is a result),
/// with a constant (or no) padding value, and that `kernel` is public, not
/// yet split, and not called in its module. Sets `reason` otherwise.
mlir::LogicalResult
canSplitParameterPacking(mlir::func::FuncOp kernel,
                         llvm::ArrayRef<mlir::linalg::PackOp> packs,
                         std::string &reason);

/// Moves `packs` into a new `<kernel>_pack_weights` placed after `kernel`
/// and retypes `kernel`'s packed arguments; returns the new function.
/// Call canSplitParameterPacking first.
mlir::func::FuncOp
splitParameterPacking(mlir::RewriterBase &rewriter, mlir::func::FuncOp kernel,
                      llvm::ArrayRef<mlir::linalg::PackOp> packs);

} // namespace qforge

#endif // QFORGE_REWRITES_SPLITPARAMETERPACKING_H
