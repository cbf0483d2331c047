//===- PackPropagation.cpp - linalg.pack through a dequant, zero padding
//---===//
//
// pack(dequant(w, s, z)) -> dequant'(pack(w), pack(s), pack(z)).
//
// The packed iteration space is the packed result's: outer dims in the
// pack's outer_dims_perm order, then one inner dim per inner tile. Each
// input dim either follows an iteration dim (the map reads d_k) or is a
// broadcast unit dim (the map reads 0). An input dim following a tiled dim
// is tiled the same way; a broadcast dim standing at the position of a tiled
// dim is tiled by 1, so it keeps its place in both parts and is read through
// 0 in both -- correct whatever the outer range of that iteration dim.
//
//===----------------------------------------------------------------------===//

#include "Rewrites/PackPropagation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

bool isZeroConstant(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// How one dequant input is packed and read in the packed iteration space.
struct PackedInput {
  bool needsPack = false;
  SmallVector<int64_t> innerDimsPos, innerTiles, outerDimsPerm;
  /// Iteration dim (of the original dequant) each input dim follows, or -1
  /// for a broadcast dim; broadcast dims get their aligned dim in `alignedTo`.
  SmallVector<int64_t> follows, alignedTo;
  AffineMap packedMap;
  bool padded = false;
};

/// Zero propagation through the dequant body: which values are exactly zero
/// when the given block arguments are zero and every other value is finite.
/// Returns failure when the body holds an op outside the set for which
/// "finite inputs give a finite result" and these rules are known to hold.
FailureOr<bool> yieldsZero(linalg::GenericOp generic,
                           const llvm::SmallDenseSet<unsigned> &zeroInputs) {
  Block *body = generic.getBody();
  llvm::SmallDenseSet<Value> zero;
  for (unsigned index : zeroInputs)
    zero.insert(body->getArgument(index));
  for (Operation &op : body->without_terminator()) {
    bool allZero = llvm::all_of(op.getOperands(),
                                [&](Value v) { return zero.contains(v); });
    bool anyZero = llvm::any_of(op.getOperands(),
                                [&](Value v) { return zero.contains(v); });
    bool result;
    if (isa<arith::ExtUIOp, arith::ExtSIOp, arith::ExtFOp, arith::TruncIOp,
            arith::UIToFPOp, arith::SIToFPOp, arith::NegFOp, arith::TruncFOp,
            arith::AddFOp, arith::SubFOp, arith::AddIOp, arith::SubIOp>(op))
      result = allZero;
    else if (isa<arith::MulFOp, arith::MulIOp>(op))
      result = anyZero;
    // A byte pair's nibble (Analysis/NibblePairs.h): a shift of zero by an
    // amount derived from a loop index (0 or 4) is zero.
    else if (auto shift = dyn_cast<arith::ShRUIOp>(op))
      result = zero.contains(shift.getLhs());
    else if (isa<linalg::IndexOp, arith::IndexCastOp>(op))
      result = false;
    else if (auto constant = dyn_cast<arith::ConstantOp>(op))
      result = isZeroConstant(constant.getResult());
    else
      return failure();
    if (result)
      zero.insert(op.getResult(0));
  }
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  return zero.contains(yield.getOperand(0));
}

/// True when the only user of `pack` is a multiply-accumulate contraction
/// that reduces the packed tiles of source dim `dim`, and another of its
/// inputs is packed with zero padding along the same iteration dims: each
/// padded lane of `pack` is then multiplied by exactly zero, so any finite
/// value there adds exactly zero.
static bool isMultipliedByZeroPadding(linalg::PackOp pack, int64_t dim) {
  if (!pack->hasOneUse())
    return false;
  auto contraction = dyn_cast<linalg::GenericOp>(*pack->user_begin());
  if (!contraction || contraction.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(contraction))
    return false;
  OpOperand &use = *pack->use_begin();
  AffineMap map = contraction.getMatchingIndexingMap(&use);
  int64_t rank = pack.getSourceRank();
  auto innerPosition = llvm::find(pack.getInnerDimsPos(), dim);
  if (innerPosition == pack.getInnerDimsPos().end())
    return false;
  int64_t packedInner = rank + (innerPosition - pack.getInnerDimsPos().begin());
  SmallVector<int64_t> outerPerm(pack.getOuterDimsPerm());
  int64_t packedOuter =
      outerPerm.empty() ? dim : llvm::find(outerPerm, dim) - outerPerm.begin();
  auto innerExpr = dyn_cast<AffineDimExpr>(map.getResult(packedInner));
  auto outerExpr = dyn_cast<AffineDimExpr>(map.getResult(packedOuter));
  auto iterators = contraction.getIteratorTypesArray();
  if (!innerExpr || !outerExpr ||
      iterators[innerExpr.getPosition()] != utils::IteratorType::reduction ||
      iterators[outerExpr.getPosition()] != utils::IteratorType::reduction)
    return false;
  for (OpOperand *other : contraction.getDpsInputOperands()) {
    if (other == &use)
      continue;
    auto otherPack = other->get().getDefiningOp<linalg::PackOp>();
    if (!otherPack || !otherPack.getPaddingValue() ||
        !isZeroConstant(otherPack.getPaddingValue()))
      continue;
    AffineMap otherMap = contraction.getMatchingIndexingMap(other);
    // The other operand's packed dims at the same two iteration dims must be
    // an outer/inner pair of one packed source dim with the same tile.
    std::optional<unsigned> otherInner = otherMap.getResultPosition(innerExpr);
    std::optional<unsigned> otherOuter = otherMap.getResultPosition(outerExpr);
    int64_t otherRank = otherPack.getSourceRank();
    if (!otherInner || !otherOuter || *otherInner < otherRank)
      continue;
    int64_t otherDim = otherPack.getInnerDimsPos()[*otherInner - otherRank];
    SmallVector<int64_t> otherPerm(otherPack.getOuterDimsPerm());
    int64_t otherOuterDim =
        otherPerm.empty() ? *otherOuter : otherPerm[*otherOuter];
    if (otherOuterDim != otherDim ||
        otherPack.getSourceType().getDimSize(otherDim) !=
            pack.getSourceType().getDimSize(dim) ||
        otherPack.getStaticInnerTiles()[*otherInner - otherRank] !=
            pack.getStaticInnerTiles()[packedInner - rank])
      continue;
    return true;
  }
  return false;
}

struct BubblePackThroughDequant : OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::PackOp pack,
                                PatternRewriter &rewriter) const override {
    auto dequant = pack.getSource().getDefiningOp<linalg::GenericOp>();
    if (!dequant || dequant.getNumDpsInits() != 1 ||
        dequant.getNumResults() != 1)
      return rewriter.notifyMatchFailure(pack,
                                         "source is not a 1-result generic");
    if (dequant.getNumReductionLoops() != 0)
      return rewriter.notifyMatchFailure(pack, "source generic reduces");
    if (!dequant->getResult(0).hasOneUse())
      return rewriter.notifyMatchFailure(pack, "dequant has other users");
    auto resultType = cast<RankedTensorType>(dequant->getResult(0).getType());
    if (!dequant.hasPureTensorSemantics() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(pack, "not a static tensor generic");
    OpOperand *init = dequant.getDpsInitOperand(0);
    if (!dequant.getMatchingIndexingMap(init).isIdentity())
      return rewriter.notifyMatchFailure(pack, "result map is not identity");
    if (dequant.payloadUsesValueFromOperand(init))
      return rewriter.notifyMatchFailure(pack, "body reads the init");
    SmallVector<int64_t> tiles(pack.getStaticInnerTiles());
    if (ShapedType::isDynamicShape(tiles))
      return rewriter.notifyMatchFailure(pack, "dynamic inner tiles");

    int64_t rank = resultType.getRank();
    ArrayRef<int64_t> innerDimsPos = pack.getInnerDimsPos();
    SmallVector<int64_t> outerPerm(pack.getOuterDimsPerm());
    if (outerPerm.empty())
      outerPerm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    // Position of each original iteration dim among the packed outer dims,
    // and of each tiled dim among the inner dims.
    SmallVector<int64_t> outerPosition(rank), innerPosition(rank, -1);
    for (auto [position, dim] : llvm::enumerate(outerPerm))
      outerPosition[dim] = position;
    for (auto [position, dim] : llvm::enumerate(innerDimsPos))
      innerPosition[dim] = position;
    SmallVector<bool> dimPadded(rank, false);
    for (auto [position, dim] : llvm::enumerate(innerDimsPos))
      dimPadded[dim] = resultType.getDimSize(dim) % tiles[position] != 0;
    int64_t packedRank = rank + innerDimsPos.size();
    MLIRContext *context = rewriter.getContext();

    SmallVector<PackedInput, 4> inputs;
    for (OpOperand *operand : dequant.getDpsInputOperands()) {
      PackedInput packed;
      AffineMap map = dequant.getMatchingIndexingMap(operand);
      auto type = dyn_cast<RankedTensorType>(operand->get().getType());
      if (!type) {
        // A scalar read by every iteration.
        packed.packedMap = AffineMap::get(packedRank, 0, context);
        inputs.push_back(packed);
        continue;
      }
      // Which iteration dim each input dim follows (-1: broadcast).
      SmallVector<bool> claimed(rank, false);
      for (auto [index, expr] : llvm::enumerate(map.getResults())) {
        if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
          packed.follows.push_back(dim.getPosition());
          claimed[dim.getPosition()] = true;
        } else if (auto constant = dyn_cast<AffineConstantExpr>(expr);
                   constant && constant.getValue() == 0 &&
                   type.getDimSize(index) == 1) {
          packed.follows.push_back(-1);
        } else {
          return rewriter.notifyMatchFailure(
              pack, "input map is not a projection with broadcast unit dims");
        }
      }
      // A broadcast dim stands for the iteration dim at its own position,
      // when no other dim of this input follows that one.
      packed.alignedTo.assign(type.getRank(), -1);
      for (auto [index, follows] : llvm::enumerate(packed.follows)) {
        int64_t aligned = follows >= 0 ? follows : int64_t(index);
        if (follows < 0 && (aligned >= rank || claimed[aligned])) {
          dequant.emitRemark()
              << "cannot place broadcast dim " << index << " of input #"
              << operand->getOperandNumber()
              << " in the packed layout; the pack is not moved";
          return failure();
        }
        claimed[aligned] = true;
        packed.alignedTo[index] = aligned;
      }
      // Inner tiles in the order of the pack's inner dims.
      SmallVector<AffineExpr> outerExprs, innerExprs;
      for (auto [position, dim] : llvm::enumerate(innerDimsPos)) {
        auto *it = llvm::find(packed.alignedTo, dim);
        if (it == packed.alignedTo.end())
          continue;
        int64_t inputDim = it - packed.alignedTo.begin();
        bool broadcast = packed.follows[inputDim] < 0;
        packed.innerDimsPos.push_back(inputDim);
        packed.innerTiles.push_back(broadcast ? 1 : tiles[position]);
        innerExprs.push_back(broadcast
                                 ? getAffineConstantExpr(0, context)
                                 : getAffineDimExpr(rank + position, context));
        packed.padded |= !broadcast && dimPadded[dim];
      }
      // Outer dims in the order of the pack's outer dims.
      packed.outerDimsPerm =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      // Aligned dims are distinct, so the order is total.
      llvm::sort(packed.outerDimsPerm, [&](int64_t a, int64_t b) {
        return outerPosition[packed.alignedTo[a]] <
               outerPosition[packed.alignedTo[b]];
      });
      for (int64_t inputDim : packed.outerDimsPerm) {
        int64_t follows = packed.follows[inputDim];
        outerExprs.push_back(
            follows < 0 ? getAffineConstantExpr(0, context)
                        : getAffineDimExpr(outerPosition[follows], context));
      }
      if (llvm::equal(packed.outerDimsPerm,
                      llvm::seq<int64_t>(0, type.getRank())))
        packed.outerDimsPerm.clear();
      packed.needsPack =
          !packed.innerDimsPos.empty() || !packed.outerDimsPerm.empty();
      llvm::append_range(outerExprs, innerExprs);
      packed.packedMap = AffineMap::get(packedRank, 0, outerExprs, context);
      inputs.push_back(packed);
    }

    // Padded lanes: the original pack put its padding value there; the
    // packed dequant computes them from zero-padded inputs.
    if (Value padding = pack.getPaddingValue()) {
      bool poison = padding.getDefiningOp<ub::PoisonOp>() != nullptr;
      bool zero = isZeroConstant(padding);
      if (!poison && !zero) {
        pack.emitRemark() << "the pack pads with a value other than zero or "
                             "poison; the packed dequant cannot reproduce it";
        return failure();
      }
      for (int64_t dim = 0; dim < rank; ++dim) {
        if (!dimPadded[dim])
          continue;
        llvm::SmallDenseSet<unsigned> zeroInputs;
        bool everyInputFollows = true;
        for (auto [index, packed] : llvm::enumerate(inputs)) {
          if (llvm::is_contained(packed.follows, dim))
            zeroInputs.insert(index);
          else
            everyInputFollows = false;
        }
        FailureOr<bool> isZero = yieldsZero(dequant, zeroInputs);
        if (failed(isZero)) {
          dequant.emitRemark()
              << "the packed dequant would pad dim " << dim
              << ", and its body holds an op that may turn zero padding into "
                 "a non-finite value; the pack is not moved";
          return failure();
        }
        // With a zero padding value, the padded lanes must be exactly zero
        // from the zero-padded inputs alone -- or not matter: multiplied by
        // a zero-padded operand of the contraction that reduces them.
        if (zero && (!everyInputFollows || !*isZero) &&
            !isMultipliedByZeroPadding(pack, dim)) {
          pack.emitRemark()
              << "the pack pads dim " << dim
              << " with zero, but the dequant of zero-padded inputs is not "
                 "provably zero there; the pack is not moved";
          return failure();
        }
      }
    }

    Location loc = dequant.getLoc();
    rewriter.setInsertionPoint(pack);
    SmallVector<Value> packedOperands;
    SmallVector<AffineMap> maps;
    for (auto [operand, packed] :
         llvm::zip(dequant.getDpsInputOperands(), inputs)) {
      Value source = operand->get();
      maps.push_back(packed.packedMap);
      if (!packed.needsPack) {
        packedOperands.push_back(source);
        continue;
      }
      SmallVector<OpFoldResult> tileSizes =
          getAsIndexOpFoldResult(context, packed.innerTiles);
      Value dest = linalg::PackOp::createDestinationTensor(
          rewriter, loc, source, tileSizes, packed.innerDimsPos,
          packed.outerDimsPerm);
      std::optional<Value> padding;
      if (packed.padded) {
        Type elementType = getElementTypeOrSelf(source.getType());
        padding = arith::ConstantOp::create(rewriter, loc,
                                            rewriter.getZeroAttr(elementType))
                      .getResult();
      }
      packedOperands.push_back(linalg::PackOp::create(rewriter, loc, source,
                                                      dest, packed.innerDimsPos,
                                                      tileSizes, padding,
                                                      packed.outerDimsPerm)
                                   .getResult());
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(packedRank, context));
    SmallVector<utils::IteratorType> iterators(packedRank,
                                               utils::IteratorType::parallel);
    auto packedDequant = linalg::GenericOp::create(
        rewriter, loc, pack.getDestType(), packedOperands, pack.getDest(), maps,
        iterators);
    rewriter.cloneRegionBefore(dequant.getRegion(), packedDequant.getRegion(),
                               packedDequant.getRegion().begin());
    // Loop indices in the body (a byte pair's nibble) in packed dims: an
    // untiled dim is its outer dim; a tiled one outer * tile + inner.
    for (auto index : llvm::make_early_inc_range(
             packedDequant.getBody()->getOps<linalg::IndexOp>())) {
      int64_t dim = index.getDim();
      rewriter.setInsertionPoint(index);
      Value outer = linalg::IndexOp::create(rewriter, loc, outerPosition[dim]);
      if (innerPosition[dim] < 0) {
        rewriter.replaceOp(index, outer);
        continue;
      }
      Value inner =
          linalg::IndexOp::create(rewriter, loc, rank + innerPosition[dim]);
      Value tile = arith::ConstantIndexOp::create(rewriter, loc,
                                                  tiles[innerPosition[dim]]);
      Value start = arith::MulIOp::create(rewriter, loc, outer, tile);
      rewriter.replaceOpWithNewOp<arith::AddIOp>(index, start, inner);
    }
    rewriter.replaceOp(pack, packedDequant->getResults());
    rewriter.eraseOp(dequant);
    return success();
  }
};

struct PadPacksWithZeros : OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::PackOp pack,
                                PatternRewriter &rewriter) const override {
    Value padding = pack.getPaddingValue();
    if (!padding || !padding.getDefiningOp<ub::PoisonOp>())
      return rewriter.notifyMatchFailure(pack, "not padded with poison");
    rewriter.setInsertionPoint(pack);
    Value zero = arith::ConstantOp::create(
        rewriter, pack.getLoc(), rewriter.getZeroAttr(padding.getType()));
    rewriter.modifyOpInPlace(
        pack, [&] { pack.getPaddingValueMutable().assign(zero); });
    return success();
  }
};

} // namespace

void qforge::populateBubblePackThroughDequantPatterns(
    RewritePatternSet &patterns) {
  // Before pad_packs_with_zeros when both sets run together: a poison pad
  // leaves the bubbled dequant free to choose its padded lanes.
  patterns.add<BubblePackThroughDequant>(patterns.getContext(), /*benefit=*/2);
}

void qforge::populatePadPacksWithZerosPatterns(RewritePatternSet &patterns) {
  patterns.add<PadPacksWithZeros>(patterns.getContext());
}

namespace {
/// A pack without padding whose tiles each cover either one element or the
/// whole dim, and whose non-unit dims keep the source's order, moves no
/// data: it is a reshape (e.g. an activation 1x1x32x128 tiled by [1, 128]
/// into 1x1x32x1x1x128).
struct PackAsReshape : OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::PackOp pack,
                                PatternRewriter &rewriter) const override {
    RankedTensorType sourceType = pack.getSourceType();
    RankedTensorType packedType = pack.getDestType();
    if (pack.getPaddingValue() || !sourceType.hasStaticShape() ||
        !packedType.hasStaticShape())
      return rewriter.notifyMatchFailure(pack, "padded or dynamic");
    int64_t rank = sourceType.getRank();
    SmallVector<int64_t> outerPerm(pack.getOuterDimsPerm());
    if (outerPerm.empty())
      outerPerm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    // The source dim behind each non-unit packed dim, in packed order.
    SmallVector<int64_t> sourceDims;
    for (auto [position, dim] : llvm::enumerate(outerPerm))
      if (packedType.getDimSize(position) != 1)
        sourceDims.push_back(dim);
    for (auto [index, dim] : llvm::enumerate(pack.getInnerDimsPos()))
      if (packedType.getDimSize(rank + index) != 1)
        sourceDims.push_back(dim);
    if (!llvm::is_sorted(sourceDims) ||
        llvm::adjacent_find(sourceDims) != sourceDims.end())
      return rewriter.notifyMatchFailure(pack, "moves data");
    SmallVector<int64_t> nonUnit;
    for (int64_t size : sourceType.getShape())
      if (size != 1)
        nonUnit.push_back(size);
    Location loc = pack.getLoc();
    auto flatType = RankedTensorType::get(nonUnit, sourceType.getElementType());
    std::optional<SmallVector<ReassociationIndices>> collapse =
        getReassociationIndicesForCollapse(sourceType.getShape(), nonUnit);
    std::optional<SmallVector<ReassociationIndices>> expand =
        getReassociationIndicesForReshape(flatType, packedType);
    if (!collapse || !expand)
      return rewriter.notifyMatchFailure(pack, "no reassociation");
    Value flat = pack.getSource();
    if (flatType != sourceType)
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flatType, flat,
                                             *collapse);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(pack, packedType, flat,
                                                       *expand);
    return success();
  }
};
} // namespace

void qforge::populatePackAsReshapePatterns(RewritePatternSet &patterns) {
  patterns.add<PackAsReshape>(patterns.getContext());
}
