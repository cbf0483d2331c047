//===- ZeroFilled.h - new reductions into zero-filled tensors ---*- C++ -*-===//
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

/// When `init` is a `linalg.fill` of a `tensor.empty`, the same fill (its
/// value widened to `elementType` when narrower; folded when constant: the
/// strategies read the fill value as a constant) of a new empty tensor of
/// `shape`, whose one dynamic dim, if any (a token count), is `dimSource`'s
/// dim `sourceDim`; null for any other init, a fill value that is not such
/// a float, or more than one dynamic dim (the caller reshapes that one).
/// The normalizations rebuild a contraction's result this way.
inline mlir::Value refillEmptyInit(mlir::RewriterBase &rewriter,
                                   mlir::Location loc, mlir::Value init,
                                   llvm::ArrayRef<int64_t> shape,
                                   mlir::Type elementType,
                                   mlir::Value dimSource, int64_t sourceDim) {
  using namespace mlir;
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>() ||
      llvm::count_if(shape, ShapedType::isDynamic) > 1)
    return nullptr;
  // The value as it is, or a narrower float widened; anything else (an
  // integer, a wider float) is the caller's to reshape.
  Value fillValue = fill.getInputs()[0];
  if (fillValue.getType() != elementType) {
    auto from = dyn_cast<FloatType>(fillValue.getType());
    auto to = dyn_cast<FloatType>(elementType);
    if (!from || !to || from.getWidth() >= to.getWidth())
      return nullptr;
    fillValue = rewriter.createOrFold<arith::ExtFOp>(fill.getLoc(), elementType,
                                                     fillValue);
  }
  SmallVector<Value> dynamicSizes;
  if (llvm::any_of(shape, ShapedType::isDynamic))
    dynamicSizes.push_back(
        tensor::DimOp::create(rewriter, loc, dimSource, sourceDim));
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, elementType, dynamicSizes);
  return linalg::FillOp::create(rewriter, fill.getLoc(), fillValue, empty)
      .getResult(0);
}

/// A generic reducing the dims of `input` marked in `reduced` into a
/// zero-filled tensor of the kept dims (in order) of `elementType`: maps
/// (identity, the kept dims), `body` given (input element, accumulator).
/// The activation's amax and its per-group sums are such reductions.
inline mlir::linalg::GenericOp
reduceDimsIntoZeros(mlir::RewriterBase &rewriter, mlir::Location loc,
                    mlir::Value input, llvm::ArrayRef<bool> reduced,
                    mlir::Type elementType,
                    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                            mlir::ValueRange)>
                        body) {
  using namespace mlir;
  MLIRContext *ctx = rewriter.getContext();
  auto type = cast<RankedTensorType>(input.getType());
  unsigned rank = type.getRank();
  SmallVector<AffineExpr> keptExprs;
  SmallVector<int64_t> keptShape;
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  for (unsigned dim = 0; dim < rank; ++dim) {
    if (reduced[dim]) {
      iterators[dim] = utils::IteratorType::reduction;
      continue;
    }
    keptExprs.push_back(getAffineDimExpr(dim, ctx));
    keptShape.push_back(type.getDimSize(dim));
  }
  return linalg::GenericOp::create(
      rewriter, loc, TypeRange{RankedTensorType::get(keptShape, elementType)},
      ValueRange{input},
      ValueRange{zeroFilled(rewriter, loc, keptShape, elementType)},
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx),
                          AffineMap::get(rank, 0, keptExprs, ctx)},
      iterators, body);
}

} // namespace qforge

#endif // QFORGE_REWRITES_ZEROFILLED_H
