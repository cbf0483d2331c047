//===- TransposeAsShuffle.cpp - small n-D transposes as one shuffle -------===//
//
// The fixed lowering turns a vector.transpose of more than two dims into
// one extract and insert per element, which LLVM keeps as scalar moves
// where it cannot see the pattern: the 4-bit integer prefill's activation
// pack (8 tokens x 4 steps x 4 byte pairs per tile, split by nibble) was a
// loop of 519 instructions, most of them single-byte moves. The same
// permutation as one shuffle of the flattened vector lets LLVM pick the
// target's permutes.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
/// A static vector.transpose of at most kMaxBits bits and more than two
/// dims that are not unit -> shape_cast to 1-D, vector.shuffle, shape_cast
/// back.
struct TransposeAsShuffle : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  /// 8 512-bit registers: a tile, not a whole tensor (a longer shuffle
  /// costs LLVM time and registers for no better code).
  static constexpr int64_t kMaxBits = 4096;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    VectorType source = transpose.getSourceVectorType();
    VectorType result = transpose.getResultVectorType();
    if (source.isScalable() || source.getRank() < 2 ||
        !source.getElementType().isIntOrFloat())
      return rewriter.notifyMatchFailure(transpose, "not a static n-D vector");
    // Two dims that are not unit: upstream's lowering makes shuffles of
    // rows, which LLVM turns into the target's permutes already.
    if (llvm::count_if(source.getShape(),
                       [](int64_t size) { return size != 1; }) <= 2)
      return rewriter.notifyMatchFailure(transpose, "a 2-D transpose");
    int64_t elements = source.getNumElements();
    if (elements * source.getElementTypeBitWidth() > kMaxBits)
      return rewriter.notifyMatchFailure(transpose, "longer than a tile");
    // Result dim d is source dim permutation[d]: each result element, in
    // the result's row-major order, takes the source's element at its
    // index times the source strides of those dims.
    SmallVector<int64_t> stridesInSource = applyPermutation(
        computeSuffixProduct(source.getShape()), transpose.getPermutation());
    SmallVector<int64_t> resultStrides =
        computeSuffixProduct(result.getShape());
    SmallVector<int64_t> mask;
    mask.reserve(elements);
    for (int64_t linear = 0; linear < elements; ++linear)
      mask.push_back(
          linearize(delinearize(linear, resultStrides), stridesInSource));
    Location loc = transpose.getLoc();
    auto flatType = VectorType::get({elements}, source.getElementType());
    Value flat = vector::ShapeCastOp::create(rewriter, loc, flatType,
                                             transpose.getVector());
    Value shuffled = vector::ShuffleOp::create(rewriter, loc, flat, flat, mask);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(transpose, result,
                                                     shuffled);
    return success();
  }
};
} // namespace

void qforge::populateTransposeAsShufflePatterns(RewritePatternSet &patterns) {
  patterns.add<TransposeAsShuffle>(patterns.getContext());
}
