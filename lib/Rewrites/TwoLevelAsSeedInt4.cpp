//===- TwoLevelAsSeedInt4.cpp - q4_0's blocks as the 4-bit seed form -----===//

#include "Rewrites/TwoLevelAsSeedInt4.h"
#include "Abi/AbiAttributes.h"
#include "Rewrites/FactorTwoLevelContraction.h"
#include "Rewrites/TwoLevelPairs.h"
#include "Rewrites/ZeroFilled.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {
/// The operand of the binary op `op` that is the integer constant `value`
/// gives the other one; null if neither is.
template <typename OpTy> Value otherThanConstant(OpTy op, int64_t value) {
  if (!op)
    return nullptr;
  APInt constant;
  if (matchPattern(op.getRhs(), m_ConstantInt(&constant)) &&
      constant.getSExtValue() == value)
    return op.getLhs();
  if (matchPattern(op.getLhs(), m_ConstantInt(&constant)) &&
      constant.getSExtValue() == value)
    return op.getRhs();
  return nullptr;
}

/// Whether `quant` is nibble `index(loop)` of `byte`:
/// uitofp((byte >> 4·index(loop)) & 15).
bool isNibbleOf(Value quant, Value byte, unsigned loop) {
  auto convert = quant.getDefiningOp<arith::UIToFPOp>();
  if (!convert)
    return false;
  Value shifted =
      otherThanConstant(convert.getIn().getDefiningOp<arith::AndIOp>(), 15);
  auto shift = shifted ? shifted.getDefiningOp<arith::ShRUIOp>() : nullptr;
  if (!shift || shift.getLhs() != byte)
    return false;
  Value half =
      otherThanConstant(shift.getRhs().getDefiningOp<arith::MulIOp>(), 4);
  auto cast = half ? half.getDefiningOp<arith::IndexCastOp>() : nullptr;
  auto index = cast ? cast.getIn().getDefiningOp<linalg::IndexOp>() : nullptr;
  return index && index.getDim() == loop;
}

/// A generic broadcasting an N x B tensor d to N x B x H as factor·d in
/// f32 (d converted by arith.extf unless f32): d and the factor.
std::optional<std::pair<Value, double>> matchScaledBroadcast(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumDpsInputs() != 1 || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() != 3 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return std::nullopt;
  MLIRContext *ctx = generic.getContext();
  AffineExpr n, b, h;
  bindDims(ctx, n, b, h);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  if (maps[0] != AffineMap::get(3, 0, {n, b}, ctx) || !maps[1].isIdentity())
    return std::nullopt;
  Block *body = generic.getBlock();
  if (generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)) ||
      llvm::any_of(body->without_terminator(), [](Operation &op) {
        return op.getNumRegions() || !isMemoryEffectFree(&op);
      }))
    return std::nullopt;
  Value converted = body->getTerminator()->getOperand(0);
  double factor = 1;
  if (auto multiply = converted.getDefiningOp<arith::MulFOp>()) {
    FloatAttr constant;
    if (matchPattern(multiply.getRhs(), m_Constant(&constant)))
      converted = multiply.getLhs();
    else if (matchPattern(multiply.getLhs(), m_Constant(&constant)))
      converted = multiply.getRhs();
    else
      return std::nullopt;
    factor = constant.getValueAsDouble();
  }
  if (auto extend = converted.getDefiningOp<arith::ExtFOp>())
    converted = extend.getIn();
  if (converted != body->getArgument(0) || !getElementTypeOrSelf(value).isF32())
    return std::nullopt;
  return std::make_pair(generic.getDpsInputOperand(0)->get(), factor);
}

/// The argument of the function's entry block `value` is a view of
/// (through slices and reshapes), if any.
std::optional<unsigned> viewedArgument(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      value = slice.getSource();
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      value = expand.getSrc();
    else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
      value = collapse.getSrc();
    else
      return std::nullopt;
  }
  auto argument = cast<BlockArgument>(value);
  if (!argument.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(argument.getOwner()->getParentOp()))
    return std::nullopt;
  return argument.getArgNumber();
}
} // namespace

FailureOr<qforge::TwoLevelAsSeedInt4Plan>
qforge::analyzeTwoLevelAsSeedInt4(linalg::GenericOp contraction,
                                  std::string &reason) {
  FailureOr<TwoLevelPlan> twoLevel = analyzeTwoLevelContraction(
      contraction, /*lanes=*/1, reason, /*quantizeActivations=*/false,
      /*dividingLanes=*/false, /*laneGroups=*/0, /*dynamicTokens=*/true);
  if (failed(twoLevel))
    return failure();
  TwoLevelAsSeedInt4Plan plan;
  plan.contraction = contraction;

  // q4_0's loops: (m, n, b, h, l), h the nibble half, l the byte.
  MLIRContext *ctx = contraction.getContext();
  AffineExpr m, n, b, h, l;
  bindDims(ctx, m, n, b, h, l);
  SmallVector<AffineMap> expectedMaps = {
      AffineMap::get(5, 0, {m, b, h, l}, ctx),
      AffineMap::get(5, 0, {n, b, h, l}, ctx),
      AffineMap::get(5, 0, {m, n}, ctx)};
  if (contraction.getIndexingMapsArray() != expectedMaps ||
      twoLevel->weightsUse->getOperandNumber() != 1 ||
      twoLevel->dequantDims != SmallVector<int64_t>{1, 2, 3, 4} ||
      !getElementTypeOrSelf(contraction.getResultTypes()[0]).isF32()) {
    reason = "not q4_0's f32 loops (m, n, block, nibble half, byte)";
    return failure();
  }
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  if (ranges[3] != 2 || !twoLevel->offset) {
    reason = "not two nibble halves with an offset";
    return failure();
  }
  // The token count M as one size: the activation's and the result's.
  auto activationType = cast<RankedTensorType>(
      contraction.getDpsInputOperand(0)->get().getType());
  auto initType =
      cast<RankedTensorType>(contraction.getDpsInitOperand(0)->get().getType());
  if (activationType.getDimSize(0) != initType.getDimSize(0) ||
      ShapedType::isDynamic(initType.getDimSize(1))) {
    reason = "the activation and the result disagree on M";
    return failure();
  }

  // The weights: nibble h of byte (n, b, l) of an i8 tensor.
  linalg::GenericOp dequant = twoLevel->dequant;
  OpOperand *bytes = nullptr;
  for (OpOperand *input : dequant.getDpsInputOperands())
    if (input != twoLevel->scale && input != twoLevel->offset)
      bytes = bytes ? nullptr : input;
  AffineExpr dn, db, dh, dl;
  bindDims(ctx, dn, db, dh, dl);
  if (!bytes || dequant.getNumDpsInputs() != 3 ||
      dequant.getMatchingIndexingMap(bytes) !=
          AffineMap::get(4, 0, {dn, db, dl}, ctx) ||
      dequant.getMatchingIndexingMap(twoLevel->scale) !=
          AffineMap::get(4, 0, {dn, db, dh}, ctx) ||
      !getElementTypeOrSelf(bytes->get()).isInteger(8) ||
      !cast<RankedTensorType>(bytes->get().getType()).hasStaticShape() ||
      !isNibbleOf(twoLevel->quant,
                  dequant.getBlock()->getArgument(bytes->getOperandNumber()),
                  /*loop=*/2)) {
    reason = "the weights are not nibble h of byte (n, b, l)";
    return failure();
  }
  plan.bytes = bytes->get();

  // The scale d and the offset c·d of one per-block d.
  auto scale = matchScaledBroadcast(twoLevel->scale->get());
  auto offset = matchScaledBroadcast(twoLevel->offset->get());
  if (!scale || !offset || scale->first != offset->first ||
      scale->second != 1.0 || !std::isfinite(offset->second)) {
    reason = "the offset is not a constant multiple of the scale, both "
             "from one value per block";
    return failure();
  }
  // Exact on both sides, so the rewrite changes no bit of a result: a
  // 16-bit d (11 or 8 significant bits) times q <= 15 or an integer
  // |c| <= 255, and their difference, are all exact in f32.
  auto blockScaleType = dyn_cast<RankedTensorType>(scale->first.getType());
  double zeroPoint = offset->second;
  if (!blockScaleType || !blockScaleType.hasStaticShape() ||
      !(blockScaleType.getElementType().isF16() ||
        blockScaleType.getElementType().isBF16()) ||
      zeroPoint != std::trunc(zeroPoint) || std::abs(zeroPoint) > 255) {
    reason = "not a 16-bit float scale per block with a whole zero-point of "
             "at most 255 (where (q - c)·d and d·q - c·d are both exact)";
    return failure();
  }
  plan.blockScale = scale->first;
  plan.zeroPoint = zeroPoint;

  std::optional<unsigned> argument = viewedArgument(plan.bytes);
  if (!argument) {
    reason = "the weights' bytes are not a view of a kernel argument";
    return failure();
  }
  plan.bytesArgument = *argument;
  return plan;
}

linalg::GenericOp
qforge::rewriteTwoLevelAsSeedInt4(RewriterBase &rewriter,
                                  const TwoLevelAsSeedInt4Plan &plan) {
  linalg::GenericOp contraction = plan.contraction;
  MLIRContext *ctx = contraction.getContext();
  Location loc = contraction.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(contraction);
  Type f32 = rewriter.getF32Type();
  auto bytesType = cast<RankedTensorType>(plan.bytes.getType());
  int64_t rows = bytesType.getDimSize(0), blocks = bytesType.getDimSize(1),
          bytesPerBlock = bytesType.getDimSize(2);

  // d and the zero-point, one per block: N x B x 1.
  Type scaleType = getElementTypeOrSelf(plan.blockScale);
  Value scale = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({rows, blocks, 1}, scaleType),
      plan.blockScale, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  auto zeroPointType = RankedTensorType::get({rows, blocks, 1}, f32);
  Value zeroPoint = arith::ConstantOp::create(
      rewriter, loc,
      DenseElementsAttr::get(zeroPointType,
                             rewriter.getF32FloatAttr(plan.zeroPoint)));

  // w[n, b, j, h] = (nibble h of byte j − c) · d, the pair innermost.
  AffineExpr n, b, j, h;
  bindDims(ctx, n, b, j, h);
  AffineMap perBlock =
      AffineMap::get(4, 0, {n, b, getAffineConstantExpr(0, ctx)}, ctx);
  Value four = arith::ConstantIntOp::create(rewriter, loc, 4, 8);
  Value weightsInit = tensor::EmptyOp::create(
      rewriter, loc, {rows, blocks, bytesPerBlock, 2}, f32);
  auto dequant = linalg::GenericOp::create(
      rewriter, loc, weightsInit.getType(),
      ValueRange{plan.bytes, scale, zeroPoint}, ValueRange{weightsInit},
      SmallVector<AffineMap>{AffineMap::get(4, 0, {n, b, j}, ctx), perBlock,
                             perBlock,
                             AffineMap::getMultiDimIdentityMap(4, ctx)},
      SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
      [&](OpBuilder &body, Location bodyLoc, ValueRange args) {
        Value half = linalg::IndexOp::create(body, bodyLoc, 3);
        Value half8 =
            arith::IndexCastOp::create(body, bodyLoc, body.getI8Type(), half);
        Value shift = arith::MulIOp::create(body, bodyLoc, half8, four);
        Value shifted = arith::ShRUIOp::create(body, bodyLoc, args[0], shift);
        Value nibble = arith::TruncIOp::create(body, bodyLoc,
                                               body.getIntegerType(4), shifted);
        Value wide =
            arith::ExtUIOp::create(body, bodyLoc, body.getI32Type(), nibble);
        Value quant = arith::UIToFPOp::create(body, bodyLoc, f32, wide);
        Value centered = arith::SubFOp::create(body, bodyLoc, quant, args[2]);
        Value blockScale = args[1];
        if (!blockScale.getType().isF32())
          blockScale = arith::ExtFOp::create(body, bodyLoc, f32, blockScale);
        Value value =
            arith::MulFOp::create(body, bodyLoc, centered, blockScale);
        linalg::YieldOp::create(body, bodyLoc, value);
      });

  // The activation 1 x M x B x L x 2: a unit dim, the halves innermost.
  Value activation = contraction.getDpsInputOperand(0)->get();
  auto activationType = cast<RankedTensorType>(activation.getType());
  int64_t tokens = activationType.getDimSize(0);
  auto expandedType =
      RankedTensorType::get({1, tokens, blocks, 2, bytesPerBlock}, f32);
  Value expanded;
  // Where a dynamic M is read: the producer's source when M is its dim 0,
  // so that nothing reads the old reshape (the outliner moves the new one
  // with the matmul only while the transpose alone reads it).
  Value tokenSource = activation;
  if (auto producer = activation.getDefiningOp<tensor::ExpandShapeOp>();
      producer &&
      producer.getReassociationIndices().front() == ReassociationIndices{0})
    tokenSource = producer.getSrc();
  if (auto producer = activation.getDefiningOp<tensor::ExpandShapeOp>()) {
    // One reshape of the producer's source (the strategies see through
    // one): its first group gets the unit dim.
    SmallVector<ReassociationIndices> groups;
    for (const ReassociationIndices &group :
         producer.getReassociationIndices()) {
      ReassociationIndices &shifted = groups.emplace_back();
      for (int64_t dim : group) {
        if (dim == 0)
          shifted.push_back(0);
        shifted.push_back(dim + 1);
      }
    }
    expanded = tensor::ExpandShapeOp::create(rewriter, loc, expandedType,
                                             producer.getSrc(), groups);
  } else {
    expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedType, activation,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  }
  SmallVector<OpFoldResult> transposedSizes = {
      rewriter.getIndexAttr(1),
      tensor::getMixedSize(rewriter, loc, tokenSource, 0),
      rewriter.getIndexAttr(blocks), rewriter.getIndexAttr(bytesPerBlock),
      rewriter.getIndexAttr(2)};
  Value transposedInit =
      tensor::EmptyOp::create(rewriter, loc, transposedSizes, f32);
  Value transposed =
      linalg::TransposeOp::create(rewriter, loc, expanded, transposedInit,
                                  ArrayRef<int64_t>{0, 1, 2, 4, 3})
          ->getResult(0);

  // The result 1 x M x N, from the old init: a fill of an empty tensor
  // becomes one of that shape (the strategies read the fill value as a
  // constant), anything else is reshaped.
  Value init = contraction.getDpsInitOperand(0)->get();
  auto resultType = cast<RankedTensorType>(init.getType());
  auto expandedInitType =
      RankedTensorType::get({1, tokens, resultType.getDimSize(1)}, f32);
  Value expandedInit = refillEmptyInit(
      rewriter, loc, init, expandedInitType.getShape(), f32, tokenSource, 0);
  if (!expandedInit)
    expandedInit = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedInitType, init,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}});

  AffineExpr batch, token, row, block, byte, half;
  bindDims(ctx, batch, token, row, block, byte, half);
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  iterators.append(3, utils::IteratorType::reduction);
  auto seed = linalg::GenericOp::create(
      rewriter, loc, expandedInit.getType(),
      ValueRange{transposed, dequant.getResult(0)}, ValueRange{expandedInit},
      SmallVector<AffineMap>{
          AffineMap::get(6, 0, {batch, token, block, byte, half}, ctx),
          AffineMap::get(6, 0, {row, block, byte, half}, ctx),
          AffineMap::get(6, 0, {batch, token, row}, ctx)},
      iterators);
  rewriter.cloneRegionBefore(contraction.getRegion(), seed.getRegion(),
                             seed.getRegion().begin());
  Value result = tensor::CollapseShapeOp::create(
      rewriter, loc, resultType, seed.getResult(0),
      ArrayRef<ReassociationIndices>{{0, 1}, {2}});

  // The two-level generics, once unused.
  auto oldDequant = contraction.getDpsInputOperand(1)
                        ->get()
                        .getDefiningOp<linalg::GenericOp>();
  rewriter.replaceOp(contraction, result);
  // (One generic may be both the scale and the offset: c = 1.)
  eraseUnusedDequant(rewriter, oldDequant);

  // The 4-bit strategies' byte pairs.
  auto function = seed->getParentOfType<func::FuncOp>();
  SmallVector<int64_t> paired;
  if (auto attr =
          function->getAttrOfType<DenseI64ArrayAttr>(kInt4BytePairsAttrName))
    llvm::append_range(paired, attr.asArrayRef());
  if (!llvm::is_contained(paired, int64_t(plan.bytesArgument)))
    paired.push_back(plan.bytesArgument);
  function->setAttr(kInt4BytePairsAttrName,
                    rewriter.getDenseI64ArrayAttr(paired));
  return seed;
}

unsigned qforge::rewriteTwoLevelPairsAsSeedInt4(ModuleOp module) {
  return rewriteEveryTwoLevelPair<TwoLevelAsSeedInt4Plan>(
      module, analyzeTwoLevelAsSeedInt4, rewriteTwoLevelAsSeedInt4);
}
