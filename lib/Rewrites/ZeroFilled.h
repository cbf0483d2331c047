//===- ZeroFilled.h - a zero-filled tensor, the init of a new reduction -*- C++ -*-===//
#ifndef QFORGE_REWRITES_ZEROFILLED_H
#define QFORGE_REWRITES_ZEROFILLED_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// `linalg.fill` of zero into a new `tensor.empty` of `shape`: the init of
/// a reduction the factoring rewrites create (reachable from the reduction
/// with transform.qforge.get_init_producers).
inline mlir::Value zeroFilled(mlir::RewriterBase &rewriter, mlir::Location loc,
                              llvm::ArrayRef<int64_t> shape,
                              mlir::Type elementType) {
  mlir::Value empty =
      mlir::tensor::EmptyOp::create(rewriter, loc, shape, elementType);
  mlir::Value zero = mlir::arith::ConstantOp::create(
      rewriter, loc, elementType, rewriter.getZeroAttr(elementType));
  return mlir::linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
}

} // namespace qforge

#endif // QFORGE_REWRITES_ZEROFILLED_H
