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

namespace {
/// The values the bytes of a vector can take, each read as a signed or an
/// unsigned byte.
struct ByteRange {
  int lo, hi;
};
} // namespace

static ByteRange fullByteRange(bool isSigned) {
  return isSigned ? ByteRange{-128, 127} : ByteRange{0, 255};
}

static ByteRange joinRanges(ByteRange a, ByteRange b) {
  return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

/// The range of the bytes of the constant `value` (full when it is not one
/// of bytes).
static ByteRange constantByteRange(Attribute value, bool isSigned) {
  auto bytes = dyn_cast_or_null<DenseIntElementsAttr>(value);
  if (!bytes || !bytes.getElementType().isInteger(8))
    return fullByteRange(isSigned);
  std::optional<ByteRange> range;
  for (const APInt &byte : bytes.getValues<APInt>()) {
    int element =
        isSigned ? int(byte.getSExtValue()) : int(byte.getZExtValue());
    range = range ? joinRanges(*range, {element, element})
                  : ByteRange{element, element};
  }
  return range.value_or(ByteRange{0, 0});
}

/// The least amount of a constant shift whose every lane shifts by 1 to 7
/// (0 when it is not such a constant).
static int leastShiftAmount(Value amount) {
  auto constant = amount.getDefiningOp<LLVM::ConstantOp>();
  auto amounts =
      constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue()) : nullptr;
  if (!amounts || !amounts.getElementType().isInteger(8))
    return 0;
  int least = 8;
  for (const APInt &by : amounts.getValues<APInt>()) {
    if (by.getZExtValue() < 1 || by.getZExtValue() > 7)
      return 0;
    least = std::min<int>(least, by.getZExtValue());
  }
  return least;
}

namespace {
/// Where the element an extractvalue reads came from, following the
/// insertvalue chain that assembled its aggregate (a lowered n-D vector).
struct ElementSource {
  /// The value inserted at exactly that position (or inside an aggregate
  /// inserted at a prefix of it), when found.
  Value inserted;
  /// Otherwise the aggregate below the chain (e.g. a constant) and the
  /// position within it, when every insert on the way was at a position
  /// disjoint from the element's; null when one wrote inside the element
  /// (a longer position): the element is then not one value.
  Value base;
  SmallVector<int64_t> position;
};
} // namespace

static ElementSource findElementSource(LLVM::ExtractValueOp extract) {
  Value container = extract.getContainer();
  SmallVector<int64_t> position(extract.getPosition());
  while (true) {
    auto insert = container.getDefiningOp<LLVM::InsertValueOp>();
    if (!insert)
      return {Value(), container, position};
    ArrayRef<int64_t> at = insert.getPosition();
    size_t common = std::min(at.size(), position.size());
    if (ArrayRef<int64_t>(at).take_front(common) !=
        ArrayRef<int64_t>(position).take_front(common)) {
      // Another element: look further down the chain.
      container = insert.getContainer();
      continue;
    }
    if (at.size() == position.size())
      return {insert.getValue(), Value(), {}};
    if (at.size() > position.size())
      return {}; // Written inside the element: not one value.
    // An enclosing aggregate replaced whole: the element is inside it.
    container = insert.getValue();
    position.erase(position.begin(), position.begin() + at.size());
  }
}

/// The value an element of a lowered n-D vector was built from: through
/// extractvalue of the insertvalue chain that assembled it; the value
/// itself otherwise (also where the chain does not tell).
static Value resolveElement(Value value) {
  while (auto extract = value.getDefiningOp<LLVM::ExtractValueOp>()) {
    ElementSource source = findElementSource(extract);
    if (!source.inserted)
      return value;
    value = source.inserted;
  }
  return value;
}

/// Whether `a` and `b` are the same value, or the same element of the same
/// lowered n-D vector (two extractvalue ops of one position).
static bool sameElement(Value a, Value b) {
  a = resolveElement(a);
  b = resolveElement(b);
  if (a == b)
    return true;
  auto extractA = a.getDefiningOp<LLVM::ExtractValueOp>();
  auto extractB = b.getDefiningOp<LLVM::ExtractValueOp>();
  return extractA && extractB &&
         extractA.getContainer() == extractB.getContainer() &&
         extractA.getPosition() == extractB.getPosition();
}

/// Whether `value` is a vector of zeros.
static bool isZeroVector(Value value) {
  value = resolveElement(value);
  if (isa_and_nonnull<LLVM::ZeroOp>(value.getDefiningOp()))
    return true;
  Attribute attribute;
  if (auto constant = value.getDefiningOp<LLVM::ConstantOp>()) {
    attribute = constant.getValue();
  } else if (auto extract = value.getDefiningOp<LLVM::ExtractValueOp>()) {
    // A whole zero constant below the chain: every element is zero.
    ElementSource source = findElementSource(extract);
    if (isa_and_nonnull<LLVM::ZeroOp>(source.base ? source.base.getDefiningOp()
                                                  : nullptr))
      return true;
    if (auto array = source.base ? source.base.getDefiningOp<LLVM::ConstantOp>()
                                 : nullptr)
      attribute = array.getValue();
  }
  auto elements = dyn_cast_or_null<DenseIntElementsAttr>(attribute);
  return elements && elements.isSplat() &&
         elements.getSplatValue<APInt>().isZero();
}

/// The comparison a select's condition is (through a lowered n-D vector's
/// elements), or null.
static LLVM::ICmpOp getCondition(LLVM::SelectOp select) {
  return resolveElement(select.getCondition()).getDefiningOp<LLVM::ICmpOp>();
}

/// Whether `select` is |y|: select(y < 0, 0 - y, y), each byte of which is
/// at most 128 read unsigned (|-128| is 0x80).
static bool isMagnitude(LLVM::SelectOp select) {
  Value y = select.getFalseValue();
  auto negated =
      resolveElement(select.getTrueValue()).getDefiningOp<LLVM::SubOp>();
  LLVM::ICmpOp negative = getCondition(select);
  return negated && negative &&
         negative.getPredicate() == LLVM::ICmpPredicate::slt &&
         sameElement(negated.getRhs(), y) &&
         sameElement(negative.getLhs(), y) && isZeroVector(negated.getLhs()) &&
         isZeroVector(negative.getRhs());
}

/// Whether `select` is a signed max (`isMax`) or min of its two values, as
/// arith-expand writes arith.maxsi and arith.minsi: select(t > f, t, f) and
/// the like.
static bool isSignedMaxOrMin(LLVM::SelectOp select, bool &isMax) {
  LLVM::ICmpOp compare = getCondition(select);
  if (!compare)
    return false;
  Value t = select.getTrueValue(), f = select.getFalseValue();
  bool greater;
  switch (compare.getPredicate()) {
  case LLVM::ICmpPredicate::sgt:
  case LLVM::ICmpPredicate::sge:
    greater = true;
    break;
  case LLVM::ICmpPredicate::slt:
  case LLVM::ICmpPredicate::sle:
    greater = false;
    break;
  default:
    return false;
  }
  if (sameElement(compare.getLhs(), t) && sameElement(compare.getRhs(), f)) {
    isMax = greater;
    return true;
  }
  if (sameElement(compare.getLhs(), f) && sameElement(compare.getRhs(), t)) {
    isMax = !greater;
    return true;
  }
  return false;
}

/// The range of the bytes of `bytes`, read as signed or unsigned, from the
/// ops that compute them -- an and with a mask (the low nibble of a byte
/// pair), a logical shift right (the high nibble), abs, a signed max or min
/// (a clamp), a negation, a select, constants, poison, shuffles of such --
/// also through the llvm.array of 1-D vectors a lowered n-D vector becomes
/// (extractvalue of an insertvalue chain); the full range where it cannot
/// tell. `known` memoizes the answers.
static ByteRange byteRange(Value bytes, bool isSigned,
                           DenseMap<Value, ByteRange> &known) {
  auto cached = known.find(bytes);
  if (cached != known.end())
    return cached->second;
  ByteRange full = fullByteRange(isSigned);
  known[bytes] = full; // Cycles (none in SSA values of one block) stop.
  auto rangeOf = [&](Value value) { return byteRange(value, isSigned, known); };
  ByteRange range = full;
  Operation *def = bytes.getDefiningOp();
  if (isa_and_nonnull<LLVM::PoisonOp, LLVM::UndefOp, LLVM::ZeroOp>(def)) {
    // The base a lowered vector is assembled into: lanes of poison or undef
    // may be taken as any value, 0 too (the sums of those lanes are not
    // defined either way).
    range = {0, 0};
  } else if (auto constant = dyn_cast_or_null<LLVM::ConstantOp>(def)) {
    range = constantByteRange(constant.getValue(), isSigned);
  } else if (auto shuffle = dyn_cast_or_null<LLVM::ShuffleVectorOp>(def)) {
    range = joinRanges(rangeOf(shuffle.getV1()), rangeOf(shuffle.getV2()));
  } else if (auto select = dyn_cast_or_null<LLVM::SelectOp>(def)) {
    bool isMax = false;
    if (!isSigned && isMagnitude(select)) {
      range = {0, 128};
    } else if (isSigned && isSignedMaxOrMin(select, isMax)) {
      ByteRange t = rangeOf(select.getTrueValue()),
                f = rangeOf(select.getFalseValue());
      range = isMax ? ByteRange{std::max(t.lo, f.lo), std::max(t.hi, f.hi)}
                    : ByteRange{std::min(t.lo, f.lo), std::min(t.hi, f.hi)};
    } else {
      range = joinRanges(rangeOf(select.getTrueValue()),
                         rangeOf(select.getFalseValue()));
    }
  } else if (auto mask = dyn_cast_or_null<LLVM::AndOp>(def)) {
    // Within [0, m] when one side's unsigned bytes are at most m.
    DenseMap<Value, ByteRange> unsignedKnown;
    int most = std::min(byteRange(mask.getLhs(), false, unsignedKnown).hi,
                        byteRange(mask.getRhs(), false, unsignedKnown).hi);
    if (!isSigned || most < 128)
      range = {0, most};
  } else if (auto shift = dyn_cast_or_null<LLVM::LShrOp>(def)) {
    if (int least = leastShiftAmount(shift.getRhs()))
      range = {0, 255 >> least};
  } else if (auto abs = dyn_cast_or_null<LLVM::AbsOp>(def)) {
    // |-128| is -128: 128 read unsigned, full read signed.
    if (!isSigned)
      range = {0, 128};
  } else if (isSigned && isa_and_nonnull<LLVM::SMaxOp, LLVM::SMinOp>(def)) {
    ByteRange lhs = rangeOf(def->getOperand(0)),
              rhs = rangeOf(def->getOperand(1));
    range = isa<LLVM::SMaxOp>(def)
                ? ByteRange{std::max(lhs.lo, rhs.lo), std::max(lhs.hi, rhs.hi)}
                : ByteRange{std::min(lhs.lo, rhs.lo), std::min(lhs.hi, rhs.hi)};
  } else if (auto sub = dyn_cast_or_null<LLVM::SubOp>(def); sub && isSigned) {
    // 0 - y, exact while y is never -128.
    ByteRange negated = rangeOf(sub.getRhs());
    if (isZeroVector(sub.getLhs()) && negated.lo > -128)
      range = {-negated.hi, -negated.lo};
  } else if (auto extract = dyn_cast_or_null<LLVM::ExtractValueOp>(def)) {
    // The element inserted last at that position (or inside an aggregate
    // inserted at a prefix of it), or the range of a whole constant below
    // the chain; the full range where an insert wrote inside the element.
    ElementSource source = findElementSource(extract);
    if (source.inserted)
      range = rangeOf(source.inserted);
    else if (auto array = source.base
                              ? source.base.getDefiningOp<LLVM::ConstantOp>()
                              : nullptr)
      range = constantByteRange(array.getValue(), isSigned);
  }
  known[bytes] = range;
  return range;
}

/// When `a` is |w| and `b` is c with w's sign, as x86_int8_dot_products
/// writes them (select(w < 0, 0 - w, w) and select(w < 0, 0 - c, c), one
/// condition), returns (w, c).
static std::optional<std::pair<Value, Value>> matchMagnitudeAndSign(Value a,
                                                                    Value b) {
  auto magnitude = a.getDefiningOp<LLVM::SelectOp>();
  auto withSign = b.getDefiningOp<LLVM::SelectOp>();
  if (!magnitude || !withSign || !isMagnitude(magnitude) ||
      !sameElement(magnitude.getCondition(), withSign.getCondition()))
    return std::nullopt;
  Value c = withSign.getFalseValue();
  auto negated =
      resolveElement(withSign.getTrueValue()).getDefiningOp<LLVM::SubOp>();
  if (!negated || !sameElement(negated.getRhs(), c) ||
      !isZeroVector(negated.getLhs()))
    return std::nullopt;
  return std::pair(magnitude.getFalseValue(), c);
}

/// Whether pmaddubsw never saturates on unsigned bytes `a` and signed bytes
/// `b`: two products of each 16-bit lane stay within [-32768, 32767] for
/// every byte value the ranges allow (a nibble times any signed byte; a
/// magnitude of at most 128 times a signed byte clamped to +-127).
static bool fitsOneMultiplyAdd(Value a, Value b) {
  DenseMap<Value, ByteRange> unsignedKnown, signedKnown;
  int most = byteRange(a, /*isSigned=*/false, unsignedKnown).hi;
  ByteRange other = byteRange(b, /*isSigned=*/true, signedKnown);
  return 2 * most * other.hi <= 32767 && 2 * most * other.lo >= -32768;
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

/// pmaddwd(pmaddubsw(u, s), 1): the 4-byte lane sums of unsigned bytes `u`
/// times signed bytes `s` in `lanes` (8 or 4) x 32 bits, exact where no
/// pair of products leaves 16 bits (fitsOneMultiplyAdd).
static Value buildMultiplyAdds(OpBuilder &builder, Location loc, int64_t lanes,
                               Value u, Value s) {
  bool wide = lanes == 8;
  StringRef multiplyBytes =
      wide ? "llvm.x86.avx2.pmadd.ub.sw" : "llvm.x86.ssse3.pmadd.ub.sw.128";
  StringRef multiplyWords =
      wide ? "llvm.x86.avx2.pmadd.wd" : "llvm.x86.sse2.pmadd.wd";
  auto wordsType = VectorType::get({lanes * 2}, builder.getI16Type());
  auto lanesType = VectorType::get({lanes}, builder.getI32Type());
  Value ones = splatConstant(builder, loc, wordsType, 1);
  Value pairs = LLVM::CallIntrinsicOp::create(
                    builder, loc, wordsType,
                    builder.getStringAttr(multiplyBytes), ValueRange{u, s})
                    .getResult(0);
  return LLVM::CallIntrinsicOp::create(builder, loc, lanesType,
                                       builder.getStringAttr(multiplyWords),
                                       ValueRange{pairs, ones})
      .getResult(0);
}

/// When `a` and `b` are |w| and c with w's sign (matchMagnitudeAndSign)
/// and c is proven within +-127, returns (w, c).
static std::optional<std::pair<Value, Value>>
matchProvenMagnitudeAndSign(Value a, Value b) {
  std::optional<std::pair<Value, Value>> parts = matchMagnitudeAndSign(a, b);
  if (!parts)
    return std::nullopt;
  DenseMap<Value, ByteRange> signedKnown;
  ByteRange range = byteRange(parts->second, /*isSigned=*/true, signedKnown);
  if (range.lo < -127 || range.hi > 127)
    return std::nullopt;
  return parts;
}

/// acc + the 4-byte lane sums of |w| times c with w's sign, in `lanes` (8
/// or 4) x 32 bits: vpabsb and vpsignb -- two instructions where the
/// selects of x86_int8_dot_products' form are five (vpsignb gives 0 where
/// w is 0, and |w| is 0 there too) -- then one pmaddubsw, which |w| <= 128
/// times c within +-127 never saturates.
static Value expandMagnitudeTimesSign(OpBuilder &builder, Location loc,
                                      int64_t lanes, Value acc, Value w,
                                      Value c) {
  auto bytesType = VectorType::get({lanes * 4}, builder.getI8Type());
  Value magnitude = LLVM::AbsOp::create(builder, loc, bytesType, w,
                                        /*is_int_min_poison=*/false);
  // psign.b(c, w) = c · sign(w).
  Value withSign =
      LLVM::CallIntrinsicOp::create(
          builder, loc, bytesType,
          builder.getStringAttr(lanes == 8 ? "llvm.x86.avx2.psign.b"
                                           : "llvm.x86.ssse3.psign.b.128"),
          ValueRange{c, w})
          .getResult(0);
  return LLVM::AddOp::create(
      builder, loc, acc,
      buildMultiplyAdds(builder, loc, lanes, magnitude, withSign));
}

/// acc + the 4-byte lane sums of `a` (unsigned) x `b` (signed) from
/// pmaddubsw and pmaddwd of `lanes` x 32 bits.
static Value expandWithMultiplyAdds(OpBuilder &builder, Location loc,
                                    int64_t lanes, Value acc, Value a,
                                    Value b) {
  if (std::optional<std::pair<Value, Value>> parts =
          matchProvenMagnitudeAndSign(a, b))
    return expandMagnitudeTimesSign(builder, loc, lanes, acc, parts->first,
                                    parts->second);
  if (fitsOneMultiplyAdd(a, b))
    return LLVM::AddOp::create(builder, loc, acc,
                               buildMultiplyAdds(builder, loc, lanes, a, b));
  auto bytesType = VectorType::get({lanes * 4}, builder.getI8Type());
  Value low = LLVM::AndOp::create(builder, loc, a,
                                  splatConstant(builder, loc, bytesType, 0x7f));
  // 0x80 as the signed byte APInt holds it (-128).
  Value top = LLVM::AndOp::create(builder, loc, a,
                                  splatConstant(builder, loc, bytesType, -128));
  Value sum = LLVM::AddOp::create(
      builder, loc, acc, buildMultiplyAdds(builder, loc, lanes, low, b));
  return LLVM::AddOp::create(builder, loc, sum,
                             buildMultiplyAdds(builder, loc, lanes, top, b));
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
  // The magnitude-times-sign form is recognized whole, before the halves'
  // shuffles hide it, and each half takes vpabsb and vpsignb.
  std::optional<std::pair<Value, Value>> parts =
      hasVpdpbusd(8, target) ? std::nullopt : matchProvenMagnitudeAndSign(a, b);
  SmallVector<Value, 2> halves;
  for (int64_t half : {0, 1}) {
    Value accHalf = slice(builder, loc, acc, half * 8, 8);
    if (parts) {
      halves.push_back(expandMagnitudeTimesSign(
          builder, loc, 8, accHalf,
          slice(builder, loc, parts->first, half * 32, 32),
          slice(builder, loc, parts->second, half * 32, 32)));
      continue;
    }
    halves.push_back(buildLaneSums(
        builder, loc, 8, accHalf, slice(builder, loc, a, half * 32, 32),
        slice(builder, loc, b, half * 32, 32), target));
  }
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
