//===- ComputeElementwiseAtReads.cpp - a decoded parameter where it is read ==//
//
// A block format keeps a group's scale in the block, as bytes (GGUF's q8_0:
// an f16 in the first two of 34 bytes). The input decodes every scale with
// one elementwise linalg.generic; left alone, that generic bufferizes into a
// prologue writing N x G floats before the matmul reads them. A strategy
// reads each group's scale once, at one point, inside its group loop: this
// pattern replaces such a point read (a tensor.extract, or a
// vector.transfer_read of one element: 0-d, broadcast, or a vector of one
// element) of the generic's
// result -- through the reshapes the normalization put between them -- by the
// generic's body computed at that point on elements of its inputs, so the scale
// is decoded where it is used and the prologue is dead.
//
// Only small bodies are copied (kMaxBodyOps): each read pays the body once.
//
//===----------------------------------------------------------------------===//

#include "Patterns/Patterns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
/// Copying a larger body to every read would cost more than the prologue.
constexpr unsigned kMaxBodyOps = 16;

/// Whether `generic` computes each element from its inputs' elements alone:
/// all-parallel, one result written through a permutation, a body of at most
/// kMaxBodyOps side-effect-free ops without regions that does not read its
/// output.
bool isPointwiseDecoding(linalg::GenericOp generic) {
  if (generic->getNumResults() != 1 || !generic.hasPureTensorSemantics() ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !generic.getIndexingMapsArray().back().isPermutation() ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return false;
  Block *body = generic.getBlock();
  if (body->getOperations().size() > kMaxBodyOps + 1)
    return false;
  return llvm::all_of(body->without_terminator(), [](Operation &op) {
    return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
  });
}

/// The indices into `expand`'s source of the element at `indices` of its
/// result: each source dim linearizes its group of result dims.
SmallVector<Value> sourceIndices(RewriterBase &rewriter, Location loc,
                                 tensor::ExpandShapeOp expand,
                                 ArrayRef<Value> indices) {
  SmallVector<Value> result;
  ArrayRef<int64_t> shape = expand.getResultType().getShape();
  for (ReassociationIndices group : expand.getReassociationIndices()) {
    if (group.size() == 1) {
      result.push_back(indices[group.front()]);
      continue;
    }
    SmallVector<Value> groupIndices;
    SmallVector<int64_t> basis;
    for (int64_t dim : group) {
      groupIndices.push_back(indices[dim]);
      basis.push_back(shape[dim]);
    }
    result.push_back(affine::AffineLinearizeIndexOp::create(
        rewriter, loc, groupIndices, basis, /*disjoint=*/true));
  }
  return result;
}

/// The value of `tensor` at `indices`, computed from the decoding generic
/// that produces it (through static expand_shapes), or null when `tensor` is
/// not such a generic's result.
Value computeAt(RewriterBase &rewriter, Location loc, Value tensor,
                SmallVector<Value> indices) {
  // Matched first, so that nothing is created for a read left alone.
  SmallVector<tensor::ExpandShapeOp> expands;
  while (auto expand = tensor.getDefiningOp<tensor::ExpandShapeOp>()) {
    if (!expand.getResultType().hasStaticShape())
      return {};
    expands.push_back(expand);
    tensor = expand.getSrc();
  }
  auto generic = tensor.getDefiningOp<linalg::GenericOp>();
  if (!generic || !isPointwiseDecoding(generic))
    return {};
  for (tensor::ExpandShapeOp expand : expands)
    indices = sourceIndices(rewriter, loc, expand, indices);
  // Loop ivs from the output's indices (its map is a permutation).
  AffineMap outputMap = generic.getIndexingMapsArray().back();
  SmallVector<Value> ivs(generic.getNumLoops());
  for (auto [position, result] : llvm::enumerate(outputMap.getResults()))
    ivs[cast<AffineDimExpr>(result).getPosition()] = indices[position];

  IRMapping mapping;
  Block *body = generic.getBlock();
  for (OpOperand *input : generic.getDpsInputOperands()) {
    Value operand = input->get();
    Value element;
    if (auto type = dyn_cast<RankedTensorType>(operand.getType())) {
      AffineMap map = generic.getMatchingIndexingMap(input);
      SmallVector<Value> inputIndices;
      for (AffineExpr expr : map.getResults())
        inputIndices.push_back(getValueOrCreateConstantIndexOp(
            rewriter, loc,
            affine::makeComposedFoldedAffineApply(
                rewriter, loc, AffineMap::get(map.getNumDims(), 0, expr),
                getAsOpFoldResult(ivs))));
      element = tensor::ExtractOp::create(rewriter, loc, operand, inputIndices);
    } else {
      element = operand; // a scalar input
    }
    mapping.map(body->getArgument(input->getOperandNumber()), element);
  }
  for (Operation &op : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(op)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    rewriter.clone(op, mapping);
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

struct ComputeExtractAtRead : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    Value value = computeAt(rewriter, extract.getLoc(), extract.getTensor(),
                            llvm::to_vector(extract.getIndices()));
    if (!value)
      return rewriter.notifyMatchFailure(extract, "not a decoded element");
    rewriter.replaceOp(extract, value);
    return success();
  }
};

struct ComputeTransferReadAtRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    // A 0-d read, or one element broadcast to every lane.
    bool broadcastsOneElement =
        llvm::all_of(read.getPermutationMap().getResults(), [](AffineExpr e) {
          auto constant = dyn_cast<AffineConstantExpr>(e);
          return constant && constant.getValue() == 0;
        });
    // Or a vector of one element (vector<1xf32>: a sub-block's scale).
    bool readsOneElement = read.getVectorType().getNumElements() == 1 &&
                           llvm::all_of(read.getInBoundsValues(),
                                        [](bool inBounds) { return inBounds; });
    if (!(broadcastsOneElement || readsOneElement) || read.getMask() ||
        !isa<RankedTensorType>(read.getBase().getType()))
      return rewriter.notifyMatchFailure(read, "not a point read of a tensor");
    Value value = computeAt(rewriter, read.getLoc(), read.getBase(),
                            llvm::to_vector(read.getIndices()));
    if (!value)
      return rewriter.notifyMatchFailure(read, "not a decoded element");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     value);
    return success();
  }
};
} // namespace

void qforge::populateComputeElementwiseAtReadsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ComputeExtractAtRead, ComputeTransferReadAtRead>(
      patterns.getContext());
}
