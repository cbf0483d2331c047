//===- ReadPastDisjointWrites.cpp - transfer reads skip unrelated writes --===//
//
// A vector.transfer_read of a tensor written by a vector.transfer_write that
// covers other elements reads the same values from the write's destination.
// Upstream folding looks past such writes only to forward the value of a
// write of exactly the read's elements; it never moves the read onto the
// earlier tensor. After unrolling a loop over two row tiles, the second
// tile's read of a loop-carried accumulator tensor goes through the first
// tile's write, which keeps `hoist_loop_invariant_subsets` from hoisting
// either tile.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"
#include "Patterns/PlainTransfer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;

namespace {
// The patterns below reason about plain boxes (qforge::isPlainBox), which
// is also what isDisjointTransferIndices compares.
using qforge::isPlainBox;

struct ReadPastDisjointWrite : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(read.getShapedType()) || !isPlainBox(read))
      return failure();
    // The writes to skip: disjoint from the read, in the read's block (so
    // that the read can move above them, below).
    Value source = read.getBase();
    vector::TransferWriteOp earliest;
    while (auto write = source.getDefiningOp<vector::TransferWriteOp>()) {
      if (!isPlainBox(write) || write->getBlock() != read->getBlock() ||
          !vector::isDisjointTransferIndices(
              write, read,
              /*testDynamicValueUsingBounds=*/true))
        break;
      earliest = write;
      source = write.getBase();
    }
    if (!earliest)
      return rewriter.notifyMatchFailure(read, "no disjoint write to skip");
    // The read also moves above the earliest write it skips: a read of the
    // tensor as it was before a write, placed after that write, makes
    // bufferization copy the tensor (one-shot bufferize does not see that
    // the two are disjoint), which a loop-carried tensor cannot take. Its
    // other operands must be available there.
    for (Value operand : read->getOperands()) {
      if (operand == read.getBase())
        continue;
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == read->getBlock() &&
          !def->isBeforeInBlock(earliest))
        return rewriter.notifyMatchFailure(
            read, "an operand is computed after the write to skip");
    }
    rewriter.modifyOpInPlace(read, [&] {
      read.getBaseMutable().assign(source);
      read->moveBefore(earliest);
    });
    return success();
  }
};

/// A read of elements that a write of a splat constant all covers is that
/// splat: e.g. one tile's accumulators out of a zero fill of two tiles.
struct ReadOfSplatWrite : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
    if (!write || !isa<RankedTensorType>(read.getShapedType()) ||
        !isPlainBox(read) || !isPlainBox(write) ||
        llvm::is_contained(read.getInBoundsValues(), false))
      return failure();
    SplatElementsAttr splat;
    if (!matchPattern(write.getVector(), m_Constant(&splat)))
      return rewriter.notifyMatchFailure(read, "the write is not of a splat");
    std::optional<SmallVector<int64_t>> readAt =
        getConstantIntValues(getAsOpFoldResult(read.getIndices()));
    std::optional<SmallVector<int64_t>> writeAt =
        getConstantIntValues(getAsOpFoldResult(write.getIndices()));
    if (!readAt || !writeAt)
      return rewriter.notifyMatchFailure(read, "dynamic indices");
    // The boxes, as [offset, offset + size) per tensor dim; leading dims
    // beyond a vector's rank have size 1.
    int64_t rank = readAt->size();
    auto sizeAlong = [&](VectorType type, int64_t dim) -> int64_t {
      int64_t leading = rank - type.getRank();
      return dim < leading ? 1 : type.getDimSize(dim - leading);
    };
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t readBegin = (*readAt)[dim], writeBegin = (*writeAt)[dim];
      if (readBegin < writeBegin ||
          readBegin + sizeAlong(read.getVectorType(), dim) >
              writeBegin + sizeAlong(write.getVectorType(), dim))
        return rewriter.notifyMatchFailure(read, "not inside the write");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        read, SplatElementsAttr::get(read.getVectorType(),
                                     splat.getSplatValue<Attribute>()));
    return success();
  }
};

/// A read with a leading vector dim of a few rows, from a tensor written by
/// transfer_writes of such rows, becomes one read per row: each row can then
/// be forwarded from the write of exactly that row (upstream folding) past
/// the writes of the others (ReadPastDisjointWrite). The rows are inserted
/// into a zero vector, every lane of which they overwrite.
struct SplitReadOfWrites : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kMaxRows = 8;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    if (!isa<RankedTensorType>(read.getShapedType()) || !isPlainBox(read) ||
        type.getRank() < 2 || type.getDimSize(0) < 2 ||
        type.getDimSize(0) > kMaxRows)
      return failure();
    VectorType rowType = VectorType::Builder(type).dropDim(0);
    // Only when a write among those the read goes through wrote rows of this
    // shape (up to leading unit dims, which other patterns drop), so that
    // some row can be forwarded: otherwise the split would only turn one
    // read into several.
    auto withoutLeadingUnitDims = [](VectorType vector) {
      ArrayRef<int64_t> shape = vector.getShape();
      while (shape.size() > 1 && shape.front() == 1)
        shape = shape.drop_front();
      return shape;
    };
    bool rowsWritten = false;
    for (auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
         write && !rowsWritten;
         write = write.getBase().getDefiningOp<vector::TransferWriteOp>())
      rowsWritten =
          write.getVectorType().getElementType() == rowType.getElementType() &&
          withoutLeadingUnitDims(write.getVectorType()) ==
              withoutLeadingUnitDims(rowType);
    if (!rowsWritten)
      return rewriter.notifyMatchFailure(read, "no write of a row to forward");
    Location loc = read.getLoc();
    int64_t rowDim = read.getShapedType().getRank() - type.getRank();
    SmallVector<bool> rowInBounds(read.getInBoundsValues());
    bool rowsInBounds = rowInBounds.front();
    rowInBounds.erase(rowInBounds.begin());
    if (!rowsInBounds)
      return rewriter.notifyMatchFailure(read, "the rows may be out of bounds");
    Value rows = arith::ConstantOp::create(rewriter, loc, type,
                                           rewriter.getZeroAttr(type));
    for (int64_t row = 0; row < type.getDimSize(0); ++row) {
      SmallVector<Value> indices(read.getIndices());
      indices[rowDim] = arith::AddIOp::create(
          rewriter, loc, indices[rowDim],
          arith::ConstantIndexOp::create(rewriter, loc, row));
      Value rowRead = vector::TransferReadOp::create(
          rewriter, loc, rowType, read.getBase(), indices, read.getPadding(),
          rowInBounds);
      rows = vector::InsertOp::create(rewriter, loc, rowRead, rows, row);
    }
    rewriter.replaceOp(read, rows);
    return success();
  }
};
/// A read that writes of pieces smaller than a row (a split of the read's
/// last vector dim) tile completely becomes one read per piece, each then
/// forwarded from the write of exactly that piece as above. The integer
/// prefill's group epilogue reads its 8 x 32 int32 sums as one vector from
/// the 16 writes of 16 lanes that ended the k loop; left whole, the read
/// keeps the sums' tensor, which bufferizes to a buffer the sums are stored
/// to (and never loaded from again) in every group. The pieces are
/// inserted into a zero vector, every lane of which they overwrite.
struct SplitReadIntoWrittenPieces : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  static constexpr int64_t kMaxPieces = 64;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    if (!isa<RankedTensorType>(read.getShapedType()) || !isPlainBox(read) ||
        llvm::is_contained(read.getInBoundsValues(), false))
      return failure();
    std::optional<SmallVector<int64_t>> readAt =
        getConstantIntValues(getAsOpFoldResult(read.getIndices()));
    if (!readAt)
      return rewriter.notifyMatchFailure(read, "dynamic indices");
    int64_t rank = type.getRank();
    int64_t firstVectorDim = static_cast<int64_t>(readAt->size()) - rank;
    // The piece: the first write's vector type (of no higher rank than the
    // read) whose shape, with leading unit dims, divides the read's and
    // splits its last dim; then which pieces writes cover, at their place.
    VectorType pieceType;
    SmallVector<int64_t> pieceShape;
    llvm::SmallDenseSet<int64_t> written;
    for (auto write = read.getBase().getDefiningOp<vector::TransferWriteOp>();
         write && isPlainBox(write);
         write = write.getBase().getDefiningOp<vector::TransferWriteOp>()) {
      VectorType writeType = write.getVectorType();
      if (!pieceType) {
        if (writeType.getElementType() != type.getElementType() ||
            writeType.getRank() > rank)
          continue;
        SmallVector<int64_t> shape(rank - writeType.getRank(), 1);
        llvm::append_range(shape, writeType.getShape());
        bool divides =
            llvm::all_of(llvm::seq<int64_t>(0, rank), [&](int64_t d) {
              return type.getDimSize(d) % shape[d] == 0;
            });
        if (!divides || shape.back() == type.getShape().back())
          continue;
        pieceType = writeType;
        pieceShape = std::move(shape);
      }
      if (writeType != pieceType ||
          llvm::is_contained(write.getInBoundsValues(), false))
        continue;
      std::optional<SmallVector<int64_t>> writeAt =
          getConstantIntValues(getAsOpFoldResult(write.getIndices()));
      if (!writeAt || writeAt->size() != readAt->size())
        continue;
      bool inPlace = true;
      int64_t piece = 0;
      for (int64_t dim = 0, e = readAt->size(); dim < e && inPlace; ++dim) {
        int64_t offset = (*writeAt)[dim] - (*readAt)[dim];
        if (dim < firstVectorDim) {
          inPlace = offset == 0;
          continue;
        }
        int64_t vectorDim = dim - firstVectorDim;
        inPlace = offset >= 0 && offset < type.getDimSize(vectorDim) &&
                  offset % pieceShape[vectorDim] == 0;
        piece = piece * (type.getDimSize(vectorDim) / pieceShape[vectorDim]) +
                offset / pieceShape[vectorDim];
      }
      if (inPlace)
        written.insert(piece);
    }
    if (!pieceType)
      return rewriter.notifyMatchFailure(read, "no write of a smaller piece");
    SmallVector<int64_t> grid;
    int64_t pieces = 1;
    for (int64_t dim = 0; dim < rank; ++dim) {
      grid.push_back(type.getDimSize(dim) / pieceShape[dim]);
      pieces *= grid.back();
    }
    if (pieces > kMaxPieces || static_cast<int64_t>(written.size()) != pieces)
      return rewriter.notifyMatchFailure(read, "not every piece is written");
    Location loc = read.getLoc();
    Value whole = arith::ConstantOp::create(rewriter, loc, type,
                                            rewriter.getZeroAttr(type));
    SmallVector<bool> pieceInBounds(pieceType.getRank(), true);
    for (int64_t piece = 0; piece < pieces; ++piece) {
      SmallVector<int64_t> offsets(rank);
      for (int64_t dim = rank - 1, rest = piece; dim >= 0; --dim) {
        offsets[dim] = (rest % grid[dim]) * pieceShape[dim];
        rest /= grid[dim];
      }
      SmallVector<Value> indices(read.getIndices());
      for (int64_t dim = 0; dim < rank; ++dim)
        if (offsets[dim] != 0)
          indices[firstVectorDim + dim] = arith::ConstantIndexOp::create(
              rewriter, loc, (*readAt)[firstVectorDim + dim] + offsets[dim]);
      Value pieceRead = vector::TransferReadOp::create(
          rewriter, loc, pieceType, read.getBase(), indices, read.getPadding(),
          pieceInBounds);
      // Offsets in every dim of the whole, strides in the piece's.
      whole = vector::InsertStridedSliceOp::create(
          rewriter, loc, pieceRead, whole, offsets,
          SmallVector<int64_t>(pieceType.getRank(), 1));
    }
    rewriter.replaceOp(read, whole);
    return success();
  }
};
} // namespace

void qforge::populateReadPastDisjointWritesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReadPastDisjointWrite, ReadOfSplatWrite, SplitReadOfWrites,
               SplitReadIntoWrittenPieces>(patterns.getContext());
}
