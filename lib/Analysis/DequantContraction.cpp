//===- DequantContraction.cpp - recognize dequant + contraction -----------===//

#include "Analysis/DequantContraction.h"
#include "Analysis/NibblePairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

/// Scales and zero-points are read once per group: a projection of the
/// iteration space that drops or pins (constant 0) at least one dim.
static bool isBroadcastMap(AffineMap map) {
  return map.isProjectedPermutation(/*allowZeroInResults=*/true) &&
         !map.isPermutation();
}

/// Follows an int-to-float cast and the integer extensions below it back to
/// a block argument `w` (or to the byte holding `w`, a nibble: `nibbleDim`
/// is then set), when the chain computes float(w) with `w` read as
/// signed or unsigned (`isSigned`). Walking outward from `w`, the innermost
/// extension fixes the reading (extsi: signed, extui: unsigned). After a
/// zero extension the top bit is clear, so any further extension and either
/// cast keep the unsigned value; after a sign extension only extsi and
/// sitofp keep the signed value -- extui or uitofp of a sign-extended
/// negative number is another number, and such chains are rejected.
BlockArgument qforge::traceIntToFloat(Value value, bool &isSigned,
                                      std::optional<unsigned> &nibbleDim) {
  Operation *def = value.getDefiningOp();
  bool castIsSigned;
  if (auto cast = dyn_cast_or_null<arith::UIToFPOp>(def)) {
    castIsSigned = false;
    value = cast.getIn();
  } else if (auto cast = dyn_cast_or_null<arith::SIToFPOp>(def)) {
    castIsSigned = true;
    value = cast.getIn();
  } else {
    return nullptr;
  }
  SmallVector<bool> extensionIsSigned; // outermost first
  while (Operation *ext = value.getDefiningOp()) {
    if (auto zext = dyn_cast<arith::ExtUIOp>(ext)) {
      extensionIsSigned.push_back(false);
      value = zext.getIn();
    } else if (auto sext = dyn_cast<arith::ExtSIOp>(ext)) {
      extensionIsSigned.push_back(true);
      value = sext.getIn();
    } else if (auto nibble = qforge::matchNibbleOfBytePair(value)) {
      nibbleDim = nibble->dim;
      value = nibble->byte;
      break;
    } else {
      return nullptr;
    }
  }
  if (extensionIsSigned.empty()) {
    isSigned = castIsSigned;
    return dyn_cast<BlockArgument>(value);
  }
  // Innermost extension first.
  isSigned = extensionIsSigned.back();
  if (isSigned) {
    bool keepsSignedValue =
        llvm::all_of(extensionIsSigned, [](bool s) { return s; }) &&
        castIsSigned;
    if (!keepsSignedValue)
      return nullptr;
  }
  return dyn_cast<BlockArgument>(value);
}

std::optional<qforge::DequantParts> qforge::matchDequant(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumResults() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  if (!isa<FloatType>(getElementTypeOrSelf(op.getDpsInits()[0].getType())))
    return std::nullopt;

  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value dequantized = yield.getOperand(0);

  // An input operand of `op` read through a broadcasting map (and, when
  // stored narrower than the arithmetic -- f16 or bf16 scales of an f32
  // dequantization -- through arith.extf).
  auto asBroadcastInput = [&](Value value) -> OpOperand * {
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      value = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || arg.getOwner() != &body)
      return nullptr;
    OpOperand *operand = op.getMatchingOpOperand(arg);
    if (!op.isDpsInput(operand) ||
        !isBroadcastMap(op.getMatchingIndexingMap(operand)))
      return nullptr;
    return operand;
  };

  // `... - offset`: the offset form.
  OpOperand *offsets = nullptr;
  if (auto sub = dequantized.getDefiningOp<arith::SubFOp>()) {
    if (!(offsets = asBroadcastInput(sub.getRhs())))
      return std::nullopt;
    dequantized = sub.getLhs();
  }
  auto scaled = dequantized.getDefiningOp<arith::MulFOp>();
  if (!scaled)
    return std::nullopt;

  DequantParts parts;
  parts.op = op;
  // The integer input, read elementwise through a permutation map.
  auto asWeights = [&](Value value) -> OpOperand * {
    parts.nibbleDim.reset();
    BlockArgument arg =
        traceIntToFloat(value, parts.weightsAreSigned, parts.nibbleDim);
    if (!arg || arg.getOwner() != &body)
      return nullptr;
    OpOperand *operand = op.getMatchingOpOperand(arg);
    if (!op.isDpsInput(operand) ||
        !isa<IntegerType>(getElementTypeOrSelf(operand->get().getType())))
      return nullptr;
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (!parts.nibbleDim)
      return map.isPermutation() ? operand : nullptr;
    // Byte pairs: every loop but the nibble's, in order.
    AffineMap bytes =
        AffineMap::getMultiDimIdentityMap(op.getNumLoops(), op.getContext())
            .dropResult(*parts.nibbleDim);
    return map == bytes ? operand : nullptr;
  };
  // `tofp(w) - zp`, or `tofp(w)` alone for symmetric quantization.
  auto matchShifted = [&](Value value) -> bool {
    if ((parts.weights = asWeights(value)))
      return true;
    auto sub = value.getDefiningOp<arith::SubFOp>();
    if (!sub)
      return false;
    parts.weights = asWeights(sub.getLhs());
    parts.zeroPoints = asBroadcastInput(sub.getRhs());
    return parts.weights && parts.zeroPoints;
  };

  for (auto [shifted, scale] : {std::pair(scaled.getLhs(), scaled.getRhs()),
                                std::pair(scaled.getRhs(), scaled.getLhs())}) {
    parts.zeroPoints = nullptr;
    parts.scales = asBroadcastInput(scale);
    if (!parts.scales)
      continue;
    // The offset form scales the weights alone.
    if (offsets) {
      if ((parts.weights = asWeights(shifted))) {
        parts.offsets = offsets;
        return parts;
      }
      continue;
    }
    if (matchShifted(shifted))
      return parts;
  }
  return std::nullopt;
}

bool qforge::isMultiReductionContractionOf(linalg::LinalgOp op, Value value,
                                           bool allowWidening) {
  if (op.getNumReductionLoops() < 2 || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() != 2)
    return false;
  bool readsValue = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    return in->get() == value;
  });
  if (!readsValue || !op.getBlock())
    return false;
  // Exactly out + in0 * in1 (either operand order): upstream's
  // isContractionBody also accepts single-operand ops around the product
  // (negf, extf, ...), which the rewrites built on this match would drop.
  Block &body = *op.getBlock();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body.getArgument(2);
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if ((add.getLhs() != out && add.getRhs() != out) || product == out)
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto widened = [&](Value operand) {
    if (auto ext = operand.getDefiningOp<arith::ExtFOp>(); ext && allowWidening)
      return ext.getIn();
    return operand;
  };
  Value lhs = widened(mul.getLhs()), rhs = widened(mul.getRhs());
  size_t expected = 3 + (lhs != mul.getLhs()) + (rhs != mul.getRhs());
  Value in0 = body.getArgument(0), in1 = body.getArgument(1);
  return body.getOperations().size() == expected &&
         ((lhs == in0 && rhs == in1) || (lhs == in1 && rhs == in0));
}
