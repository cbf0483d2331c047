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

#include <string>

namespace qforge {

/// The name of `kernel`'s one-time packing function, `<kernel>_pack_weights`
/// (docs/abi.md).
std::string getPackWeightsName(llvm::StringRef kernel);

/// Whether `function` is such a packing function (by its name).
bool isPackWeightsFunction(mlir::func::FuncOp function);

/// The function argument `pack` packs, read directly or through
/// tensor.expand_shape / collapse_shape (free reshapes a normalized
/// producer form puts between an N x G argument and its N x G x 1 use);
/// null when the pack reads anything else.
mlir::BlockArgument getPackedArgument(mlir::linalg::PackOp pack);

/// Checks that every pack reads an argument of `kernel` used by nothing else,
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
