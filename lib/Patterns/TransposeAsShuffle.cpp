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
// A shuffle that long costs the backend dearly, though: the 4-bit integer
// prefill's pack (8 tokens x 32 bytes) was one shuffle of 256 bytes, which
// took LLVM 0.3 s to optimize and select per kernel (Zen 1), for about 30
// instructions. Where the permutation is a row shuffle and a transpose of
// 32-bit words -- each token's bytes permuted alike, then 4-byte words
// moving whole from a token's row to a step's -- it becomes exactly that:
// one shuffle per row and a butterfly of two-source shuffles of words, each
// a vector of one or two registers.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
/// 8 512-bit registers: a tile, not a whole tensor (a longer shuffle costs
/// LLVM time and registers for no better code).
constexpr int64_t kMaxBits = 4096;

/// What both patterns take: a static vector.transpose of at most kMaxBits
/// bits with more than two dims that are not unit. A 2-D one (unit dims
/// aside) is left to upstream's lowering, whose shuffles of rows LLVM turns
/// into the target's permutes already.
LogicalResult matchSmallTranspose(vector::TransposeOp transpose,
                                  PatternRewriter &rewriter) {
  VectorType source = transpose.getSourceVectorType();
  if (source.isScalable() || source.getRank() < 2 ||
      !source.getElementType().isIntOrFloat())
    return rewriter.notifyMatchFailure(transpose, "not a static n-D vector");
  if (llvm::count_if(source.getShape(),
                     [](int64_t size) { return size != 1; }) <= 2)
    return rewriter.notifyMatchFailure(transpose, "a 2-D transpose");
  if (source.getNumElements() * source.getElementTypeBitWidth() > kMaxBits)
    return rewriter.notifyMatchFailure(transpose, "longer than a tile");
  return success();
}

/// The permutation of `transpose` on the flattened vectors: element i of
/// the result, in row-major order, is element mask[i] of the source.
SmallVector<int64_t> flatTransposeMask(vector::TransposeOp transpose) {
  VectorType source = transpose.getSourceVectorType();
  VectorType result = transpose.getResultVectorType();
  // Result dim d is source dim permutation[d]: each result element takes
  // the source's element at its index times the source strides of those
  // dims.
  SmallVector<int64_t> stridesInSource = applyPermutation(
      computeSuffixProduct(source.getShape()), transpose.getPermutation());
  SmallVector<int64_t> resultStrides = computeSuffixProduct(result.getShape());
  int64_t elements = source.getNumElements();
  SmallVector<int64_t> mask;
  mask.reserve(elements);
  for (int64_t linear = 0; linear < elements; ++linear)
    mask.push_back(
        linearize(delinearize(linear, resultStrides), stridesInSource));
  return mask;
}

/// A static vector.transpose of at most 4096 bits and more than two dims
/// that are not unit, whose permutation of the flattened vectors is a row
/// shuffle and a square transpose of 32-bit words: the source as T rows of
/// R elements (T its first dim that is not unit), the result as A x T
/// words of 32 / bitwidth elements, A = T a power of two, and result word
/// (a, t) the elements of row t that one permutation of a row, the same
/// for every row, puts in word a. Rewritten as: each row shuffled by that
/// permutation (none where it is the identity) and bitcast to A words, the
/// T x A words transposed by log2(T) rounds of two-source shuffles (in
/// round j, rows i and i + j with i & j = 0 exchange their blocks of j
/// words), and the columns bitcast and reshaped to the result.
struct TransposeAsRowShufflesAndWordTranspose
    : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  static constexpr int64_t kWordBits = 32;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (failed(matchSmallTranspose(transpose, rewriter)))
      return failure();
    VectorType source = transpose.getSourceVectorType();
    Type element = source.getElementType();
    int64_t bits = element.getIntOrFloatBitWidth();
    int64_t elements = source.getNumElements();
    if (kWordBits % bits != 0)
      return rewriter.notifyMatchFailure(transpose,
                                         "elements wider than "
                                         "a word or not dividing it");
    const int64_t *firstDim = llvm::find_if(
        source.getShape(), [](int64_t size) { return size != 1; });
    int64_t rows = *firstDim, rowLength = elements / rows;
    int64_t perWord = kWordBits / bits;
    if (rowLength % perWord != 0 || rowLength / perWord != rows ||
        !llvm::isPowerOf2_64(rows))
      return rewriter.notifyMatchFailure(transpose,
                                         "not a square transpose of words");
    int64_t words = rows;
    // Result element ((a * T) + t) * perWord + e must be source element
    // t * R + rowMask[a * perWord + e], rowMask the same for every t.
    SmallVector<int64_t> mask = flatTransposeMask(transpose);
    SmallVector<int64_t> rowMask(rowLength, -1);
    for (int64_t linear = 0; linear < elements; ++linear) {
      int64_t e = linear % perWord, t = linear / perWord % rows,
              a = linear / perWord / rows;
      if (mask[linear] / rowLength != t)
        return rewriter.notifyMatchFailure(transpose,
                                           "elements cross between rows");
      int64_t &slot = rowMask[a * perWord + e];
      int64_t inRow = mask[linear] % rowLength;
      if (slot >= 0 && slot != inRow)
        return rewriter.notifyMatchFailure(transpose,
                                           "rows are permuted differently");
      slot = inRow;
    }
    bool identity = llvm::all_of(llvm::enumerate(rowMask), [](auto entry) {
      return static_cast<int64_t>(entry.index()) == entry.value();
    });

    Location loc = transpose.getLoc();
    Type wordType = perWord == 1 ? element : rewriter.getI32Type();
    auto wordsType = VectorType::get({words}, wordType);
    Value asRows = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({rows, rowLength}, element),
        transpose.getVector());
    SmallVector<Value> current;
    for (int64_t t = 0; t < rows; ++t) {
      Value row = vector::ExtractOp::create(rewriter, loc, asRows, t);
      if (!identity)
        row = vector::ShuffleOp::create(rewriter, loc, row, row, rowMask);
      if (perWord != 1)
        row = vector::BitCastOp::create(rewriter, loc, wordsType, row);
      current.push_back(row);
    }
    // Round j: rows i and i + j (i & j = 0) exchange their off-diagonal
    // blocks of j words. Position p of the new row i takes row i's word p
    // where p & j = 0, else row i + j's word p - j; of the new row i + j,
    // row i's word p + j where p & j = 0, else row i + j's word p.
    for (int64_t j = 1; j < words; j *= 2) {
      SmallVector<int64_t> low, high;
      for (int64_t p = 0; p < words; ++p) {
        low.push_back((p & j) == 0 ? p : words + p - j);
        high.push_back((p & j) == 0 ? p + j : words + p);
      }
      SmallVector<Value> next(current);
      for (int64_t i = 0; i < words; ++i) {
        if (i & j)
          continue;
        next[i] = vector::ShuffleOp::create(rewriter, loc, current[i],
                                            current[i + j], low);
        next[i + j] = vector::ShuffleOp::create(rewriter, loc, current[i],
                                                current[i + j], high);
      }
      current = std::move(next);
    }
    // Column a (now row a) holds word a of every row: the result's
    // elements in (a, t) order, as one 1-D vector put together by
    // concatenating shuffles (a flattened consumer, e.g. the pack's
    // contiguous write, folds the shape casts away), not by inserts into an
    // n-D vector whose innermost rows may be as narrow as one word.
    SmallVector<Value> pieces;
    for (Value column : current)
      pieces.push_back(perWord == 1
                           ? column
                           : vector::BitCastOp::create(
                                 rewriter, loc,
                                 VectorType::get({rows * perWord}, element),
                                 column));
    while (pieces.size() > 1) {
      SmallVector<Value> joined;
      for (size_t i = 0; i < pieces.size(); i += 2) {
        int64_t length = cast<VectorType>(pieces[i].getType()).getNumElements();
        joined.push_back(vector::ShuffleOp::create(
            rewriter, loc, pieces[i], pieces[i + 1],
            llvm::to_vector(llvm::seq<int64_t>(0, 2 * length))));
      }
      pieces = std::move(joined);
    }
    // Users that only take away leading unit dims (vector.extract at
    // zeros) get the 1-D vector reshaped, not an extract that hides it from
    // the consumer's shape casts.
    Value flat = pieces.front();
    for (Operation *user : llvm::make_early_inc_range(transpose->getUsers())) {
      auto extract = dyn_cast<vector::ExtractOp>(user);
      if (!extract || extract.hasDynamicPosition() ||
          !isa<VectorType>(extract.getResult().getType()) ||
          llvm::any_of(extract.getStaticPosition(),
                       [](int64_t index) { return index != 0; }) ||
          llvm::any_of(transpose.getResultVectorType().getShape().take_front(
                           extract.getStaticPosition().size()),
                       [](int64_t size) { return size != 1; }))
        continue;
      rewriter.setInsertionPoint(extract);
      rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(
          extract, extract.getResult().getType(), flat);
    }
    rewriter.setInsertionPoint(transpose);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(
        transpose, transpose.getResultVectorType(), flat);
    return success();
  }
};

/// A static vector.transpose of at most kMaxBits bits and more than two
/// dims that are not unit -> shape_cast to 1-D, vector.shuffle, shape_cast
/// back.
struct TransposeAsShuffle : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    if (failed(matchSmallTranspose(transpose, rewriter)))
      return failure();
    VectorType source = transpose.getSourceVectorType();
    VectorType result = transpose.getResultVectorType();
    int64_t elements = source.getNumElements();
    SmallVector<int64_t> mask = flatTransposeMask(transpose);
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
  // Tried first: where it applies, the rows' shuffles and the words'
  // butterfly instead of one long shuffle.
  patterns.add<TransposeAsRowShufflesAndWordTranspose>(patterns.getContext(),
                                                       /*benefit=*/2);
}
