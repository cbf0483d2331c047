//===- PrefetchReadsAhead.cpp - prefetch what a later iteration reads -----===//

#include "Rewrites/PrefetchReadsAhead.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

#include <functional>
#include <limits>

using namespace mlir;
using qforge::LoopBounds;
using qforge::MemRefRead;

namespace {

/// Reads from memrefs only: reads from tensors are not prefetchable yet.
std::optional<MemRefRead> asMemRefRead(Operation *op) {
  MemRefRead read;
  if (auto transfer = dyn_cast<vector::TransferReadOp>(op))
    read = {op, transfer.getBase(), transfer.getIndices()};
  else if (auto load = dyn_cast<vector::LoadOp>(op))
    read = {op, load.getBase(), load.getIndices()};
  else if (auto load = dyn_cast<memref::LoadOp>(op))
    read = {op, load.getMemRef(), load.getIndices()};
  else
    return std::nullopt;
  if (!isa<MemRefType>(read.memref.getType()))
    return std::nullopt;
  return read;
}

/// Whether `read` starts a new `lineBytes` line relative to the other reads
/// at the same dynamic indices: its constant indices are at a bit offset
/// (from the static strides) that is a multiple of the line. With dynamic
/// strides, or elements without a bit width (index, vectors, complex), the
/// offset is unknown and only the read at constant offset 0 (all constant
/// indices 0) is taken.
bool startsLine(const MemRefRead &read, int64_t lineBytes) {
  auto type = cast<MemRefType>(read.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  bool staticStrides = type.getElementType().isIntOrFloat() &&
                       succeeded(type.getStridesAndOffset(strides, offset)) &&
                       !llvm::any_of(strides, ShapedType::isDynamic);
  int64_t bits = 0;
  for (auto [dim, index] : llvm::enumerate(read.indices)) {
    APInt value;
    if (!matchPattern(index, m_ConstantInt(&value)) || value.isZero())
      continue;
    if (!staticStrides)
      return false;
    bits += value.getSExtValue() * strides[dim] * type.getElementTypeBitWidth();
  }
  return bits % (lineBytes * 8) == 0;
}
/// Bytes one execution of `read` loads; unknown (the largest value) for
/// element types without a bit width (index, complex) and scalable vectors.
/// A transfer_read's broadcast dims (a constant 0 in its permutation map,
/// e.g. one scale read into every lane) load nothing more.
int64_t readBytes(const MemRefRead &read) {
  constexpr int64_t unknown = std::numeric_limits<int64_t>::max();
  Type type = read.op->getResult(0).getType();
  int64_t elements = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return unknown;
    elements = vector.getNumElements();
    type = vector.getElementType();
    // The map's results are the vector's leading dims (a memref of
    // vectors supplies the trailing ones).
    if (auto transfer = dyn_cast<vector::TransferReadOp>(read.op))
      for (unsigned dim = 0, e = transfer.getPermutationMap().getNumResults();
           dim < e; ++dim)
        if (transfer.isBroadcastDim(dim))
          elements /= vector.getDimSize(dim);
  }
  if (!type.isIntOrFloat())
    return unknown;
  return std::max<int64_t>(1, elements * type.getIntOrFloatBitWidth() / 8);
}

/// How many lines of `lineBytes` the innermost dim of a vector read covers,
/// when it runs along the memref's contiguous innermost dim (stride 1,
/// int or float elements, a minor identity map): a 256-byte read of scales
/// needs four prefetches, one per line. 1 for every other read.
int64_t linesCovered(const MemRefRead &read, int64_t lineBytes) {
  auto vector = dyn_cast<VectorType>(read.op->getResult(0).getType());
  auto type = cast<MemRefType>(read.memref.getType());
  if (!vector || vector.getRank() == 0 || vector.isScalable() ||
      type.getRank() == 0 || !type.getElementType().isIntOrFloat() ||
      !type.isLastDimUnitStride())
    return 1;
  if (auto transfer = dyn_cast<vector::TransferReadOp>(read.op))
    if (!transfer.getPermutationMap().isMinorIdentity())
      return 1;
  int64_t bits =
      vector.getShape().back() * type.getElementType().getIntOrFloatBitWidth();
  return std::max<int64_t>(1, llvm::divideCeil(bits, lineBytes * 8));
}

std::optional<LoopBounds> getLoopBounds(Operation *op) {
  if (auto loop = dyn_cast_or_null<scf::ForOp>(op))
    return LoopBounds{loop.getInductionVar(), loop.getLowerBound(),
                      loop.getUpperBound(), loop.getStep()};
  if (auto forall = dyn_cast_or_null<scf::ForallOp>(op);
      forall && forall.getRank() == 1)
    return LoopBounds{forall.getInductionVar(0), forall.getMixedLowerBound()[0],
                      forall.getMixedUpperBound()[0], forall.getMixedStep()[0]};
  return std::nullopt;
}

/// Whether `index` is the induction variable `iv`, or a pure single-result
/// op (affine.apply, arith.addi, ...) of it -- the forms tiling produces.
bool isIndexedBy(Value index, Value iv) {
  if (index == iv)
    return true;
  Operation *def = index.getDefiningOp();
  return def && def->getNumResults() == 1 && def->getNumRegions() == 0 &&
         isPure(def) && llvm::is_contained(def->getOperands(), iv);
}
/// How many elements `index` moves when `iv` moves by one: 1 for `iv`
/// itself or `iv` plus a value not computed from it, the constant factor
/// of a multiplication, an affine.apply's linear coefficient of `iv`; none
/// for anything else (a modulo, a product of unknowns).
std::optional<int64_t> elementsPerStep(Value index, Value iv) {
  if (index == iv)
    return 1;
  Operation *def = index.getDefiningOp();
  if (auto add = dyn_cast_or_null<arith::AddIOp>(def)) {
    Value other = add.getLhs() == iv ? add.getRhs() : add.getLhs();
    if ((add.getLhs() == iv) != (add.getRhs() == iv) && !isIndexedBy(other, iv))
      return 1;
    return std::nullopt;
  }
  if (auto mul = dyn_cast_or_null<arith::MulIOp>(def)) {
    Value other = mul.getLhs() == iv ? mul.getRhs() : mul.getLhs();
    APInt factor;
    if ((mul.getLhs() == iv) != (mul.getRhs() == iv) &&
        matchPattern(other, m_ConstantInt(&factor)))
      return factor.getSExtValue();
    return std::nullopt;
  }
  auto apply = dyn_cast_or_null<affine::AffineApplyOp>(def);
  if (!apply)
    return std::nullopt;
  AffineMap map = apply.getAffineMap();
  // The inputs (dims, then symbols) that are `iv`.
  llvm::SmallBitVector isIv(map.getNumInputs());
  for (auto [position, operand] : llvm::enumerate(apply.getMapOperands()))
    isIv[position] = operand == iv;
  auto inputPosition = [&](AffineExpr expr) -> std::optional<unsigned> {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return dim.getPosition();
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return map.getNumDims() + symbol.getPosition();
    return std::nullopt;
  };
  // The coefficient of `iv` in a sum of (constant multiples of) inputs and
  // constants; none through a mod, floordiv, ceildiv or product of inputs
  // whose operands move with `iv` (one whose operands do not is constant
  // in it: 0).
  std::function<std::optional<int64_t>(AffineExpr)> coefficient =
      [&](AffineExpr expr) -> std::optional<int64_t> {
    if (std::optional<unsigned> position = inputPosition(expr))
      return isIv[*position] ? 1 : 0;
    if (isa<AffineConstantExpr>(expr))
      return 0;
    auto binary = cast<AffineBinaryOpExpr>(expr);
    std::optional<int64_t> lhs = coefficient(binary.getLHS());
    std::optional<int64_t> rhs = coefficient(binary.getRHS());
    if (!lhs || !rhs)
      return std::nullopt;
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return *lhs + *rhs;
    case AffineExprKind::Mul:
      if (auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS()))
        return *lhs * factor.getValue();
      if (auto factor = dyn_cast<AffineConstantExpr>(binary.getLHS()))
        return *rhs * factor.getValue();
      [[fallthrough]];
    default:
      if (*lhs == 0 && *rhs == 0)
        return 0;
      return std::nullopt;
    }
  };
  return coefficient(map.getResult(0));
}

/// Bytes the address of `read` moves per iteration of a loop over `iv`
/// with a static `step`; none when a stride, the step or an index's
/// dependence on `iv` is not static.
std::optional<int64_t> bytesPerIteration(const MemRefRead &read, Value iv,
                                         std::optional<int64_t> step) {
  auto type = cast<MemRefType>(read.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!step || !type.getElementType().isIntOrFloat() ||
      failed(type.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  int64_t elements = 0;
  for (auto [dim, index] : llvm::enumerate(read.indices)) {
    if (!isIndexedBy(index, iv))
      continue;
    std::optional<int64_t> perStep = elementsPerStep(index, iv);
    if (!perStep || ShapedType::isDynamic(strides[dim]))
      return std::nullopt;
    elements += *perStep * strides[dim];
  }
  return std::abs(elements * *step) * type.getElementTypeBitWidth() / 8;
}
} // namespace

FailureOr<qforge::PrefetchPlan>
qforge::analyzePrefetchReadsAhead(Operation *target,
                                  const PrefetchOptions &options,
                                  std::string &reason, bool &notLoop) {
  notLoop = false;
  std::optional<LoopBounds> loop = getLoopBounds(target);
  if (!loop) {
    notLoop = true;
    reason = "expected an scf.for or a one-dimensional scf.forall target";
    return failure();
  }
  Value iv = loop->iv;
  // With into_parent_loop, the last iterations prefetch the first ones of
  // the enclosing loop's next iteration. No enclosing loop (e.g. a forall of
  // one iteration, folded away) has no next iteration: the clamp then holds.
  std::optional<LoopBounds> parent;
  if (options.intoParentLoop)
    parent = getLoopBounds(target->getParentOp());
  Block *body = iv.getParentBlock();
  SmallVector<MemRefRead> reads;
  bool sawTensorRead = false;
  body->walk([&](Operation *op) {
    if (auto read = dyn_cast<vector::TransferReadOp>(op))
      sawTensorRead |= isa<RankedTensorType>(read.getBase().getType());
    std::optional<MemRefRead> read = asMemRefRead(op);
    if (read &&
        llvm::any_of(read->indices,
                     [&](Value index) { return isIndexedBy(index, iv); }) &&
        startsLine(*read, options.lineBytes) &&
        readBytes(*read) >= options.minReadBytes)
      reads.push_back(*read);
  });
  if (reads.empty()) {
    reason = std::string("no memref read in the loop is indexed by its "
                         "induction variable at a constant offset that starts "
                         "a line of line_bytes, reading at least "
                         "min_read_bytes") +
             (sawTensorRead ? " (the loop still reads tensors: prefetch after "
                              "bufferization)"
                            : "");
    return failure();
  }

  PrefetchPlan plan;
  plan.loop = target;
  plan.bounds = *loop;
  plan.parent = parent;
  plan.options = options;
  // ahead_bytes: as many iterations as take the read that advances most
  // this far (reads whose advance is not static do not count; with none,
  // `iterations` stands).
  if (options.aheadBytes > 0) {
    std::optional<int64_t> step = getConstantIntValue(loop->step);
    int64_t widest = 0;
    for (const MemRefRead &read : reads)
      widest = std::max(widest, bytesPerIteration(read, iv, step).value_or(0));
    if (widest > 0)
      plan.options.iterations = std::max<int64_t>(
          options.iterations, llvm::divideCeil(options.aheadBytes, widest));
  }
  plan.reads = std::move(reads);
  return plan;
}

void qforge::prefetchReadsAhead(RewriterBase &rewriter,
                                const PrefetchPlan &plan) {
  const PrefetchOptions &options = plan.options;
  const LoopBounds &loop = plan.bounds;
  const std::optional<LoopBounds> &parent = plan.parent;
  Value iv = loop.iv;
  Block *body = iv.getParentBlock();
  OpBuilder::InsertionGuard guard(rewriter);
  // The iteration to prefetch, computed once at the top of the loop body
  // for every read in it: `iv` replaced by the clamped next value (and,
  // with into_parent_loop, past the end, by the wrapped one and the
  // parent's next iteration).
  rewriter.setInsertionPointToStart(body);
  Location loopLoc = plan.loop->getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loopLoc, value);
  };
  auto materialize = [&](OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(rewriter, loopLoc, value);
  };
  Value distance = arith::MulIOp::create(
      rewriter, loopLoc, materialize(loop.step), constant(options.iterations));
  Value ahead = arith::AddIOp::create(rewriter, loopLoc, iv, distance);
  Value upperBound = materialize(loop.upperBound);
  Value last =
      arith::SubIOp::create(rewriter, loopLoc, upperBound, constant(1));
  IRMapping nextIteration;
  nextIteration.map(iv, arith::MinSIOp::create(rewriter, loopLoc, ahead, last));
  if (parent) {
    // Past the target's last iteration, and the parent has a next one: the
    // iteration as far past the start of the parent's next iteration, i.e.
    // `ahead` less the target's trip count times its step (exact when the
    // step does not divide the range), clamped.
    Value lowerBound = materialize(loop.lowerBound);
    Value step = materialize(loop.step);
    Value span = arith::MulIOp::create(
        rewriter, loopLoc,
        arith::CeilDivSIOp::create(
            rewriter, loopLoc,
            arith::SubIOp::create(rewriter, loopLoc, upperBound, lowerBound),
            step),
        step);
    Value wrapped = arith::MinSIOp::create(
        rewriter, loopLoc,
        arith::SubIOp::create(rewriter, loopLoc, ahead, span), last);
    Value parentNext = arith::AddIOp::create(rewriter, loopLoc, parent->iv,
                                             materialize(parent->step));
    Value past = arith::AndIOp::create(
        rewriter, loopLoc,
        arith::CmpIOp::create(rewriter, loopLoc, arith::CmpIPredicate::sge,
                              ahead, upperBound),
        arith::CmpIOp::create(rewriter, loopLoc, arith::CmpIPredicate::slt,
                              parentNext, materialize(parent->upperBound)));
    nextIteration.map(iv,
                      arith::SelectOp::create(rewriter, loopLoc, past, wrapped,
                                              nextIteration.lookup(iv)));
    nextIteration.map(parent->iv,
                      arith::SelectOp::create(rewriter, loopLoc, past,
                                              parentNext, parent->iv));
  }

  for (const MemRefRead &read : plan.reads) {
    rewriter.setInsertionPoint(read.op);
    Location loc = read.op->getLoc();
    // The read's indices at that iteration: an index computed from a
    // replaced induction variable is recomputed from its replacement, next
    // to this read. A mapping of its own: clone() records each clone, which
    // may sit in a nested region another read cannot see.
    IRMapping readIteration = nextIteration;
    SmallVector<Value> indices;
    for (Value index : read.indices) {
      if (readIteration.contains(index)) {
        indices.push_back(readIteration.lookup(index));
        continue;
      }
      bool recompute =
          isIndexedBy(index, iv) || (parent && isIndexedBy(index, parent->iv));
      indices.push_back(
          recompute ? rewriter.clone(*index.getDefiningOp(), readIteration)
                          ->getResult(0)
                    : index);
    }
    // One prefetch per line the read covers, along its innermost dim.
    int64_t lineBytes = options.lineBytes;
    int64_t lines = linesCovered(read, lineBytes);
    int64_t lineElements = lines > 1
                               ? lineBytes * 8 /
                                     cast<MemRefType>(read.memref.getType())
                                         .getElementType()
                                         .getIntOrFloatBitWidth()
                               : 0;
    for (int64_t line = 0; line < lines; ++line) {
      SmallVector<Value> lineIndices = indices;
      if (line > 0)
        lineIndices.back() = arith::AddIOp::create(
            rewriter, loc, indices.back(),
            arith::ConstantIndexOp::create(rewriter, loc, line * lineElements));
      memref::PrefetchOp::create(rewriter, loc, read.memref, lineIndices,
                                 rewriter.getBoolAttr(false),
                                 rewriter.getI32IntegerAttr(options.locality),
                                 rewriter.getBoolAttr(true));
    }
  }
}
