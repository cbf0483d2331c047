//===- PrefetchOps.cpp - transform.qforge.prefetch_reads_ahead ------------===//

#include "TransformOps/QForgeTransformOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {
/// A read of a memref at `indices`.
struct MemRefRead {
  Operation *op;
  Value memref;
  ValueRange indices;
};

std::optional<MemRefRead> asMemRefRead(Operation *op) {
  if (auto read = dyn_cast<vector::TransferReadOp>(op))
    return MemRefRead{op, read.getBase(), read.getIndices()};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return MemRefRead{op, load.getBase(), load.getIndices()};
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return MemRefRead{op, load.getMemRef(), load.getIndices()};
  return std::nullopt;
}

/// Byte offset of the constant indices of `read`, or nullopt when the
/// memref's strides are not static.
std::optional<int64_t> constantByteOffset(const MemRefRead &read) {
  auto type = cast<MemRefType>(read.memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  int64_t elementBytes = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t bytes = 0;
  for (auto [index, stride] : llvm::zip(read.indices, strides)) {
    APInt value;
    if (matchPattern(index, m_ConstantInt(&value)))
      bytes += value.getSExtValue() * stride * elementBytes;
  }
  return bytes;
}
} // namespace

LogicalResult transform::PrefetchReadsAheadOp::verify() {
  if (getIterations() < 1)
    return emitOpError("iterations must be at least 1");
  if (getLineBytes() < 1)
    return emitOpError("line_bytes must be positive");
  if (getLocality() < 0 || getLocality() > 3)
    return emitOpError("locality must be in [0, 3]");
  return success();
}

DiagnosedSilenceableFailure transform::PrefetchReadsAheadOp::applyToOne(
    transform::TransformRewriter &rewriter, Operation *target,
    transform::ApplyToEachResultList &results,
    transform::TransformState &state) {
  auto loop = dyn_cast<scf::ForOp>(target);
  if (!loop) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "expected an scf.for target";
    diag.attachNote(target->getLoc()) << "target";
    return diag;
  }
  Value iv = loop.getInductionVar();
  SmallVector<MemRefRead> reads;
  bool sawTensorRead = false;
  loop.getBody()->walk([&](Operation *op) {
    if (auto read = dyn_cast<vector::TransferReadOp>(op))
      sawTensorRead |= isa<RankedTensorType>(read.getBase().getType());
    std::optional<MemRefRead> read = asMemRefRead(op);
    if (!read || !llvm::is_contained(read->indices, iv))
      return;
    std::optional<int64_t> offset = constantByteOffset(*read);
    if (offset && *offset % getLineBytes() == 0)
      reads.push_back(*read);
  });
  if (reads.empty()) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "no memref read in the loop is indexed by its induction variable"
        << (sawTensorRead ? " (the loop still reads tensors: prefetch after "
                            "bufferization)"
                          : "");
    diag.attachNote(loop.getLoc()) << "loop";
    return diag;
  }

  for (const MemRefRead &read : reads) {
    rewriter.setInsertionPoint(read.op);
    Location loc = read.op->getLoc();
    Value distance = arith::MulIOp::create(
        rewriter, loc, loop.getStep(),
        arith::ConstantIndexOp::create(rewriter, loc, getIterations()));
    Value ahead = arith::AddIOp::create(rewriter, loc, iv, distance);
    Value last = arith::SubIOp::create(
        rewriter, loc, loop.getUpperBound(),
        arith::ConstantIndexOp::create(rewriter, loc, 1));
    Value clamped = arith::MinSIOp::create(rewriter, loc, ahead, last);
    SmallVector<Value> indices;
    for (Value index : read.indices)
      indices.push_back(index == iv ? clamped : index);
    memref::PrefetchOp::create(rewriter, loc, read.memref, indices,
                               rewriter.getBoolAttr(false),
                               rewriter.getI32IntegerAttr(getLocality()),
                               rewriter.getBoolAttr(true));
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::PrefetchReadsAheadOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}
