//===- ExpandByteDotProducts.cpp - vpdpbusd without VNNI ------------------===//

#include "Rewrites/ExpandByteDotProducts.h"

#include "Patterns/ByteDotProducts.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;

int64_t qforge::getVpdpbusdLanes(LLVM::CallIntrinsicOp call) {
  StringRef name = call.getIntrin();
  if (!name.consume_front("llvm.x86.avx512.vpdpbusd."))
    return 0;
  if (name == "128")
    return 4;
  if (name == "256")
    return 8;
  if (name == "512")
    return 16;
  return 0;
}

/// Whether every byte of the constant `value` is below 128.
static bool isConstantBelow128(Attribute value) {
  auto bytes = dyn_cast_or_null<DenseIntElementsAttr>(value);
  if (!bytes || !bytes.getElementType().isInteger(8))
    return false;
  if (bytes.isSplat())
    return bytes.getSplatValue<APInt>().getZExtValue() < 128;
  return llvm::all_of(bytes.getValues<APInt>(), [](const APInt &byte) {
    return byte.getZExtValue() < 128;
  });
}

/// Whether every byte of `bytes` is below 128: an and with a constant of at
/// most 7 bits per byte (the low nibble of a byte pair), a logical shift
/// right by at least 1 (the high nibble), a constant, poison, or shuffles
/// of such,
/// also through the llvm.array of 1-D vectors a lowered n-D vector becomes
/// (extractvalue of an insertvalue chain). `known` memoizes the answers.
static bool hasClearTopBits(Value bytes, DenseMap<Value, bool> &known) {
  auto cached = known.find(bytes);
  if (cached != known.end())
    return cached->second;
  known[bytes] = false; // Cycles (none in SSA values of one block) stop.
  bool clear = false;
  Operation *def = bytes.getDefiningOp();
  if (isa_and_nonnull<LLVM::PoisonOp, LLVM::UndefOp, LLVM::ZeroOp>(def)) {
    // The base a lowered vector is assembled into: lanes of poison or undef
    // may be taken as any value, one below 128 too (the sums of those lanes
    // are not defined either way).
    clear = true;
  } else if (auto constant = dyn_cast_or_null<LLVM::ConstantOp>(def)) {
    clear = isConstantBelow128(constant.getValue());
  } else if (auto shuffle = dyn_cast_or_null<LLVM::ShuffleVectorOp>(def)) {
    clear = hasClearTopBits(shuffle.getV1(), known) &&
            hasClearTopBits(shuffle.getV2(), known);
  } else if (auto mask = dyn_cast_or_null<LLVM::AndOp>(def)) {
    clear = hasClearTopBits(mask.getRhs(), known) ||
            hasClearTopBits(mask.getLhs(), known);
  } else if (auto shift = dyn_cast_or_null<LLVM::LShrOp>(def)) {
    // A shift by at least 1 in every lane: its amount has no lane of 0.
    auto amount = shift.getRhs().getDefiningOp<LLVM::ConstantOp>();
    auto amounts =
        amount ? dyn_cast<DenseIntElementsAttr>(amount.getValue()) : nullptr;
    clear = amounts && amounts.getElementType().isInteger(8) &&
            llvm::all_of(amounts.getValues<APInt>(), [](const APInt &by) {
              return by.getZExtValue() >= 1 && by.getZExtValue() < 8;
            });
  } else if (auto extract = dyn_cast_or_null<LLVM::ExtractValueOp>(def)) {
    // The element inserted last at that position, or a constant array's.
    Value container = extract.getContainer();
    while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
      if (insert.getPosition() == extract.getPosition())
        break;
      container = insert.getContainer();
    }
    if (auto insert = container.getDefiningOp<LLVM::InsertValueOp>())
      clear = hasClearTopBits(insert.getValue(), known);
    else if (auto array = container.getDefiningOp<LLVM::ConstantOp>())
      clear = isConstantBelow128(array.getValue());
  }
  known[bytes] = clear;
  return clear;
}

static bool hasClearTopBits(Value bytes) {
  DenseMap<Value, bool> known;
  return hasClearTopBits(bytes, known);
}

/// Elements [first, first + count) of the vector `value`.
static Value slice(OpBuilder &builder, Location loc, Value value, int64_t first,
                   int64_t count) {
  auto mask = llvm::to_vector(llvm::seq<int32_t>(first, first + count));
  return LLVM::ShuffleVectorOp::create(builder, loc, value, value, mask);
}

static Value splatConstant(OpBuilder &builder, Location loc, VectorType type,
                           int64_t value) {
  auto element = cast<IntegerType>(type.getElementType());
  return LLVM::ConstantOp::create(
      builder, loc, type,
      SplatElementsAttr::get(type, APInt(element.getWidth(), value,
                                         /*isSigned=*/true)));
}

/// acc + the 4-byte lane sums of `a` (unsigned) x `b` (signed) from
/// pmaddubsw and pmaddwd of `lanes` x 32 bits.
static Value expandWithMultiplyAdds(OpBuilder &builder, Location loc,
                                    int64_t lanes, Value acc, Value a,
                                    Value b) {
  bool wide = lanes == 8;
  StringRef multiplyBytes =
      wide ? "llvm.x86.avx2.pmadd.ub.sw" : "llvm.x86.ssse3.pmadd.ub.sw.128";
  StringRef multiplyWords =
      wide ? "llvm.x86.avx2.pmadd.wd" : "llvm.x86.sse2.pmadd.wd";
  auto bytesType = VectorType::get({lanes * 4}, builder.getI8Type());
  auto wordsType = VectorType::get({lanes * 2}, builder.getI16Type());
  auto lanesType = VectorType::get({lanes}, builder.getI32Type());
  Value ones = splatConstant(builder, loc, wordsType, 1);
  auto laneSums = [&](Value unsignedBytes) -> Value {
    Value pairs =
        LLVM::CallIntrinsicOp::create(builder, loc, wordsType,
                                      builder.getStringAttr(multiplyBytes),
                                      ValueRange{unsignedBytes, b})
            .getResult(0);
    return LLVM::CallIntrinsicOp::create(builder, loc, lanesType,
                                         builder.getStringAttr(multiplyWords),
                                         ValueRange{pairs, ones})
        .getResult(0);
  };
  if (hasClearTopBits(a))
    return LLVM::AddOp::create(builder, loc, acc, laneSums(a));
  Value low = LLVM::AndOp::create(builder, loc, a,
                                  splatConstant(builder, loc, bytesType, 0x7f));
  // 0x80 as the signed byte APInt holds it (-128).
  Value top = LLVM::AndOp::create(builder, loc, a,
                                  splatConstant(builder, loc, bytesType, -128));
  Value sum = LLVM::AddOp::create(builder, loc, acc, laneSums(low));
  return LLVM::AddOp::create(builder, loc, sum, laneSums(top));
}

static bool hasVpdpbusd(int64_t lanes,
                        const qforge::ByteDotProductTarget &target) {
  return lanes == 16 ? target.hasVnni512 : target.hasVnni256;
}

/// Whether `target` has vpdpbusd of `lanes` x 32 bits or what computes the
/// same sums (two halves of 256 bits; the multiply-add expansion).
static bool canComputeLaneSums(int64_t lanes,
                               const qforge::ByteDotProductTarget &target) {
  if (hasVpdpbusd(lanes, target))
    return true;
  if (lanes == 16)
    return canComputeLaneSums(8, target);
  return lanes == 8 ? target.hasAvx2 : target.hasSsse3;
}

/// acc + the 4-byte lane sums of `a` x `b` in `lanes` i32 lanes from what
/// `target` has (canComputeLaneSums).
static Value buildLaneSums(OpBuilder &builder, Location loc, int64_t lanes,
                           Value acc, Value a, Value b,
                           const qforge::ByteDotProductTarget &target) {
  if (hasVpdpbusd(lanes, target))
    return qforge::buildVpdpbusd(builder, loc, acc, a, b);
  if (lanes < 16)
    return expandWithMultiplyAdds(builder, loc, lanes, acc, a, b);
  // Two halves of 8 lanes (32 bytes each), then the lanes joined again.
  SmallVector<Value, 2> halves;
  for (int64_t half : {0, 1})
    halves.push_back(
        buildLaneSums(builder, loc, 8, slice(builder, loc, acc, half * 8, 8),
                      slice(builder, loc, a, half * 32, 32),
                      slice(builder, loc, b, half * 32, 32), target));
  auto joined = llvm::to_vector(llvm::seq<int32_t>(0, 16));
  return LLVM::ShuffleVectorOp::create(builder, loc, halves[0], halves[1],
                                       joined);
}

LogicalResult qforge::legalizeVpdpbusd(RewriterBase &rewriter,
                                       LLVM::CallIntrinsicOp call,
                                       const ByteDotProductTarget &target) {
  int64_t lanes = getVpdpbusdLanes(call);
  if (!lanes || call->getNumOperands() != 3 || call->getNumResults() != 1)
    return failure();
  if (hasVpdpbusd(lanes, target))
    return success();
  // Checked before building: no half-built expansion is left behind.
  if (!canComputeLaneSums(lanes, target))
    return failure();
  rewriter.setInsertionPoint(call);
  rewriter.replaceOp(
      call, buildLaneSums(rewriter, call.getLoc(), lanes, call->getOperand(0),
                          call->getOperand(1), call->getOperand(2), target));
  return success();
}
