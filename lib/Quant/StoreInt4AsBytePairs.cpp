//===- StoreInt4AsBytePairs.cpp - i4 arguments become bytes of two nibbles ===//
//
// docs/abi.md states the storage this implements: an i4 argument of shape
// S x K is passed as S x K/2 bytes, element 2i in the low nibble of byte i,
// element 2i+1 in the high nibble.
//
//===----------------------------------------------------------------------===//

#include "Abi/AbiAttributes.h"
#include "Quant/Passes.h"

#include "Analysis/NibblePairs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace qforge {
#define GEN_PASS_DEF_STOREINT4ASBYTEPAIRS
#include "Quant/Passes.h.inc"
} // namespace qforge

using namespace mlir;

namespace {
bool isNibbleTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isInteger(4);
}

/// `type` with dim `position` split into (size / 2, 2).
RankedTensorType splitDim(RankedTensorType type, unsigned position) {
  SmallVector<int64_t> shape(type.getShape());
  shape[position] /= 2;
  shape.insert(shape.begin() + position + 1, 2);
  return RankedTensorType::get(shape, type.getElementType());
}

/// Reassociation of `rank` dims where dim `position` is split in two.
SmallVector<ReassociationIndices> splitReassociation(unsigned rank,
                                                     unsigned position) {
  SmallVector<ReassociationIndices> groups;
  int64_t next = 0;
  for (unsigned dim = 0; dim < rank; ++dim) {
    if (dim == position) {
      groups.push_back({next, next + 1});
      next += 2;
    } else {
      groups.push_back({next++});
    }
  }
  return groups;
}

/// Rewrites `generic`, which reads the i4 tensor `nibbles` as its input
/// `nibbleOperand`, to read `bytes` (the same elements, two per byte along
/// the innermost dim) instead. The loop `k` that walks the nibbles'
/// innermost dim is split into (k / 2, k % 2): operands that walk `k` get
/// that dim split by a free tensor.expand_shape, the byte tensor is read
/// without the nibble dim, and the body takes its nibble with a shift by
/// 4 * (k % 2) and a truncation. Results are collapsed back, so the
/// generic's users are unchanged.
LogicalResult splitGenericOverBytes(linalg::GenericOp generic,
                                    OpOperand &nibbleOperand, Value bytes,
                                    RewriterBase &rewriter) {
  AffineMap nibbleMap = generic.getMatchingIndexingMap(&nibbleOperand);
  auto nibbleDim = dyn_cast<AffineDimExpr>(
      nibbleMap.getResult(nibbleMap.getNumResults() - 1));
  if (!nibbleDim)
    return generic.emitError()
           << "reads an i4 tensor whose innermost dim is not a loop dim ("
           << AffineMapAttr::get(nibbleMap)
           << "); qforge stores i4 as byte pairs along it";
  unsigned k = nibbleDim.getPosition();
  unsigned numLoops = generic.getNumLoops();
  MLIRContext *context = generic.getContext();
  // Old dim d_i is d_i for i <= k, d_(i+1) after: the nibble dim is k + 1.
  SmallVector<AffineExpr> renumbered;
  for (unsigned dim = 0; dim < numLoops; ++dim)
    renumbered.push_back(getAffineDimExpr(dim <= k ? dim : dim + 1, context));
  AffineExpr pairDim = getAffineDimExpr(k, context);
  AffineExpr nibbleInPair = getAffineDimExpr(k + 1, context);

  Location loc = generic.getLoc();
  SmallVector<Value> inputs, outputs;
  SmallVector<AffineMap> maps;
  SmallVector<std::optional<unsigned>> splitResultDims;
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    SmallVector<AffineExpr> results;
    std::optional<unsigned> splitPosition;
    for (auto [position, result] : llvm::enumerate(map.getResults())) {
      if (result == nibbleDim) {
        results.push_back(pairDim);
        if (&operand != &nibbleOperand) {
          results.push_back(nibbleInPair);
          splitPosition = position;
        }
        continue;
      }
      if (result.isFunctionOfDim(k))
        return generic.emitError()
               << "operand #" << operand.getOperandNumber()
               << " reads an expression of the i4 tensor's innermost "
               << "loop; qforge can only split plain loop dims into byte "
                  "pairs";
      results.push_back(result.replaceDims(renumbered));
    }
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, context));
    Value value = operand.get();
    if (&operand == &nibbleOperand) {
      value = bytes;
    } else if (splitPosition) {
      auto type = cast<RankedTensorType>(value.getType());
      value = tensor::ExpandShapeOp::create(
          rewriter, loc, splitDim(type, *splitPosition), value,
          splitReassociation(type.getRank(), *splitPosition));
    }
    if (generic.isDpsInit(&operand)) {
      outputs.push_back(value);
      splitResultDims.push_back(splitPosition);
    } else {
      inputs.push_back(value);
    }
  }
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  iterators.insert(iterators.begin() + k + 1, iterators[k]);
  SmallVector<Type> resultTypes;
  for (Value output : outputs)
    resultTypes.push_back(output.getType());

  auto split = linalg::GenericOp::create(rewriter, loc, resultTypes, inputs,
                                         outputs, maps, iterators);
  rewriter.inlineRegionBefore(generic.getRegion(), split.getRegion(),
                              split.getRegion().end());
  Block &body = split.getRegion().front();
  // linalg.index of the old dims: renumbered, and the old k rebuilt as
  // 2 * (k / 2) + k % 2.
  for (auto index :
       llvm::make_early_inc_range(body.getOps<linalg::IndexOp>())) {
    uint64_t dim = index.getDim();
    rewriter.setInsertionPoint(index);
    if (dim < k)
      continue;
    if (dim > k) {
      rewriter.replaceOpWithNewOp<linalg::IndexOp>(index, dim + 1);
      continue;
    }
    Value pair = linalg::IndexOp::create(rewriter, loc, k);
    Value nibble = linalg::IndexOp::create(rewriter, loc, k + 1);
    Value two = arith::ConstantIndexOp::create(rewriter, loc, 2);
    Value even = arith::MulIOp::create(rewriter, loc, pair, two);
    rewriter.replaceOpWithNewOp<arith::AddIOp>(index, even, nibble);
  }
  // The nibble: the byte shifted right by 4 * (k % 2), truncated to i4.
  BlockArgument byteArg = body.getArgument(nibbleOperand.getOperandNumber());
  byteArg.setType(rewriter.getI8Type());
  rewriter.setInsertionPointToStart(&body);
  Value nibble = qforge::buildNibbleOfBytePair(rewriter, loc, byteArg, k + 1);
  rewriter.replaceAllUsesExcept(
      byteArg, nibble,
      nibble.getDefiningOp<arith::TruncIOp>().getIn().getDefiningOp());

  rewriter.setInsertionPointAfter(split);
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(split.getResults())) {
    std::optional<unsigned> position = splitResultDims[index];
    if (!position) {
      results.push_back(result);
      continue;
    }
    auto originalType =
        cast<RankedTensorType>(generic.getResult(index).getType());
    results.push_back(tensor::CollapseShapeOp::create(
        rewriter, loc, originalType, result,
        splitReassociation(originalType.getRank(), *position)));
  }
  rewriter.replaceOp(generic, results);
  return success();
}

/// Stores the i4 argument `nibbles` of `func` as byte pairs: its type
/// becomes S x K/2 x i8 and every generic reading it is split over bytes.
LogicalResult storeAsBytePairs(func::FuncOp func, BlockArgument nibbles,
                               RewriterBase &rewriter) {
  auto type = cast<RankedTensorType>(nibbles.getType());
  unsigned index = nibbles.getArgNumber();
  if (type.getRank() == 0 || !type.hasStaticShape() ||
      type.getShape().back() % 2 != 0)
    return emitError(nibbles.getLoc())
           << "argument #" << index << " has type " << type
           << "; qforge stores i4 two per byte along the innermost dim, "
              "which must be static and even";
  // A generic reading i4 (the dequantization), or -- torch-mlir's form --
  // a tensor.expand_shape of the argument into groups whose innermost dim
  // stays even, read by such generics: it expands the bytes alike.
  auto checkGenericUse = [&](OpOperand &use) -> LogicalResult {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!generic || !generic.isDpsInput(&use))
      return emitError(nibbles.getLoc())
             << "argument #" << index << " (" << type << ") is used by '"
             << use.getOwner()->getName()
             << "'; qforge reads i4 arguments only as linalg.generic inputs "
                "(e.g. the dequantization), directly or through a "
                "tensor.expand_shape that keeps the innermost dim even, "
                "or passes them on to a function of the module";
    if (llvm::count_if(generic.getDpsInputs(), [](Value input) {
          return isNibbleTensor(input.getType());
        }) > 1)
      return generic.emitError()
             << "reads more than one i4 tensor; qforge splits one per generic";
    return success();
  };
  auto splitsBytes = [](tensor::ExpandShapeOp expand) {
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    return expand.getResultType().hasStaticShape() && shape.back() % 2 == 0;
  };
  // A call passing the argument on to a function of this module whose
  // parameter has the same i4 type: that function stores it as byte pairs
  // too (this pass converts every function's i4 arguments), so the call
  // passes the bytes unchanged -- a model's private layer functions.
  auto passesOnToFunction = [&](OpOperand &use) {
    auto call = dyn_cast<func::CallOp>(use.getOwner());
    if (!call)
      return false;
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return callee && !callee.isExternal() &&
           callee.getArgumentTypes()[use.getOperandNumber()] == type;
  };
  SmallVector<OpOperand *> uses;
  SmallVector<tensor::ExpandShapeOp> expands;
  for (OpOperand &use : nibbles.getUses()) {
    if (passesOnToFunction(use))
      continue;
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(use.getOwner());
        expand && splitsBytes(expand)) {
      for (OpOperand &expandUse : expand.getResult().getUses())
        if (failed(checkGenericUse(expandUse)))
          return failure();
      expands.push_back(expand);
      continue;
    }
    if (failed(checkGenericUse(use)))
      return failure();
    uses.push_back(&use);
  }
  SmallVector<int64_t> byteShape(type.getShape());
  byteShape.back() /= 2;
  auto byteType = RankedTensorType::get(byteShape, rewriter.getI8Type());
  nibbles.setType(byteType);
  SmallVector<Type> inputs(func.getArgumentTypes());
  inputs[index] = byteType;
  func.setType(
      FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  for (OpOperand *use : uses) {
    auto generic = cast<linalg::GenericOp>(use->getOwner());
    rewriter.setInsertionPoint(generic);
    if (failed(splitGenericOverBytes(generic, *use, nibbles, rewriter)))
      return failure();
  }
  for (tensor::ExpandShapeOp expand : expands) {
    SmallVector<int64_t> expandedBytes(expand.getResultType().getShape());
    expandedBytes.back() /= 2;
    rewriter.setInsertionPoint(expand);
    auto bytes = tensor::ExpandShapeOp::create(
        rewriter, expand.getLoc(),
        RankedTensorType::get(expandedBytes, rewriter.getI8Type()), nibbles,
        expand.getReassociationIndices());
    SmallVector<OpOperand *> expandUses = llvm::map_to_vector(
        expand.getResult().getUses(), [](OpOperand &use) { return &use; });
    for (OpOperand *use : expandUses) {
      auto generic = cast<linalg::GenericOp>(use->getOwner());
      rewriter.setInsertionPoint(generic);
      if (failed(splitGenericOverBytes(generic, *use, bytes, rewriter)))
        return failure();
    }
    rewriter.eraseOp(expand);
  }
  return success();
}

struct StoreInt4AsBytePairs
    : qforge::impl::StoreInt4AsBytePairsBase<StoreInt4AsBytePairs> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<int64_t> paired;
      for (BlockArgument argument : func.getArguments()) {
        if (!isNibbleTensor(argument.getType()))
          continue;
        if (failed(storeAsBytePairs(func, argument, rewriter)))
          return signalPassFailure();
        paired.push_back(argument.getArgNumber());
      }
      if (paired.empty())
        continue;
      // What the driver reads to choose a strategy that knows byte pairs.
      func->setAttr(qforge::kInt4BytePairsAttrName,
                    rewriter.getDenseI64ArrayAttr(paired));
      // The collapsed results move into their consumers (the contraction
      // gets the split k too, its activation a free expand_shape), so no
      // collapse is left between the dequantization and the contraction.
      RewritePatternSet patterns(&getContext());
      linalg::populateFoldReshapeOpsByExpansionPatterns(
          patterns, [](OpOperand *fused) {
            Operation *producer = fused->get().getDefiningOp();
            return isa_and_nonnull<tensor::CollapseShapeOp>(producer) &&
                   isa<linalg::GenericOp>(fused->getOwner());
          });
      tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                           &getContext());
      tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
      tensor::populateFoldTensorEmptyPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace
