//===- HoistOperandConversion.h - convert an input once -------*- C++ -*-===//
//
// A generic whose body converts one of its inputs by itself -- the weights'
// `arith.uitofp` in an f32 prefill's partial sums -- repeats that conversion
// every time the generic runs. Inside a loop in which the input does not
// change (the token blocks of a row tile and group), the conversion can run
// once before the loop into a tensor of converted values that the generic
// reads instead: on a core whose FMAs share their ports with the widening
// and the conversion, each token block then spends those ports on FMAs only.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_HOISTOPERANDCONVERSION_H
#define QFORGE_REWRITES_HOISTOPERANDCONVERSION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace qforge {

/// What hoisting the conversion of one input of a generic needs, found by
/// analyzeOperandConversion (no change).
struct OperandConversionPlan {
  mlir::linalg::GenericOp generic;
  unsigned input = 0;
  /// The body ops that depend on the input's block argument alone (and on
  /// constants or values from above), in body order.
  llvm::SmallVector<mlir::Operation *> conversionOps;
  /// Their one result used by the rest of the body: the converted element.
  mlir::Value converted;
  /// The body ops they read that depend on no block argument (constants,
  /// linalg.index, arithmetic on those), in body order: copied along.
  llvm::SmallVector<mlir::Operation *> freeOps;
  /// The converted tensor's dims: the generic's loop dims of the input's
  /// map and of the conversion's linalg.index ops, in loop order.
  llvm::SmallVector<unsigned> dims;
  /// The outermost scf.for the conversion goes before (the generic's loops
  /// up to it do not change the input).
  mlir::scf::ForOp outermostLoop;
  /// Ops defining the input inside those loops (slices of loop-invariant
  /// values), in an order that defines each value before its uses: they
  /// move before `outermostLoop` with the conversion.
  llvm::SmallVector<mlir::Operation *> invariantDefs;
};

/// Checks that input `input` of `generic` (tensor semantics, a projected
/// permutation map) is converted by a part of the body that depends on it,
/// constants, loop indices and values from above alone, yielding one scalar
/// the rest of the body uses, and that the generic's enclosing scf.for loops in
/// which the input does not change run it at least `minIterations` times per
/// conversion (the product of their trip counts; an unknown count is taken
/// as enough). The loops end at the first one the input depends on and at
/// any op other than scf.for (an scf.forall: the threads' work is not
/// shared). Fails with `reason` otherwise.
mlir::FailureOr<OperandConversionPlan>
analyzeOperandConversion(mlir::linalg::GenericOp generic, unsigned input,
                         int64_t minIterations, std::string &reason);

/// Moves `plan.invariantDefs` before `plan.outermostLoop`, builds there a
/// generic over `plan.dims` computing the converted element of each element
/// of the input (and index of those dims), and makes `plan.generic` read
/// that tensor instead of converting (in place). Returns the new generic.
mlir::linalg::GenericOp
hoistOperandConversion(mlir::RewriterBase &rewriter,
                       const OperandConversionPlan &plan);

} // namespace qforge

#endif // QFORGE_REWRITES_HOISTOPERANDCONVERSION_H
