//===- SiteReplay.cpp - a module's reference, matmul by matmul -----------===//

#include "Bench/SiteReplay.h"
#include "Driver/Options.h"
#include "Driver/SelectStrategy.h"
#include "Driver/Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;

static constexpr llvm::StringLiteral kCaptureName = "qforge_verify_capture";
static constexpr llvm::StringLiteral kReplayName = "qforge_verify_replay";

/// How many trailing dims of the site's activation hold a group's elements
/// (loops 4 and up of the canonical form), 0 when they are not the trailing
/// ones.
static unsigned countGroupDims(const qforge::MatmulSite &site) {
  linalg::GenericOp contraction = site.contraction;
  AffineMap map =
      contraction.getMatchingIndexingMap(contraction.getDpsInputOperand(0));
  // A two-level contraction (llama.cpp's K-quants) keeps its own loops: its
  // activation is quantized per sub-block, the element dim alone (32
  // elements; q6_K's 16), innermost.
  if (site.twoLevel)
    return map.getNumResults() > 0 &&
                   isa<AffineDimExpr>(map.getResults().back())
               ? 1
               : 0;
  unsigned groupDims = 0;
  for (AffineExpr result : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    if (!dim)
      return 0;
    if (dim.getPosition() >= 4)
      ++groupDims;
    else if (groupDims)
      return 0; // a group dim before another one
  }
  return groupDims;
}

/// Where the activation of `contraction` is tapped (kernel) and replayed
/// (reference): its input operand, or -- when that is a linalg.transpose
/// permuting only the trailing `groupDims` dims -- the transpose's input
/// (q4_0's fields form reads the activation with each byte's two nibbles
/// innermost). Such a transpose reorders the elements within each group,
/// so a group's amax and rounding are the same on either side of it; and
/// a tap on the transposed value would give the strategy a materialized
/// 5-D transpose it does not vectorize into the contraction's reads.
static OpOperand *activationTapPoint(linalg::GenericOp contraction,
                                     unsigned groupDims) {
  OpOperand *operand = contraction.getDpsInputOperand(0);
  auto transpose = operand->get().getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose->hasOneUse())
    return operand;
  ArrayRef<int64_t> permutation = transpose.getPermutation();
  int64_t fixed = int64_t(permutation.size()) - int64_t(groupDims);
  for (int64_t dim = 0; dim < fixed; ++dim)
    if (permutation[dim] != dim)
      return operand;
  return &transpose.getInputMutable();
}

qforge::ReplayPlan qforge::planSiteReplay(ModuleOp module,
                                          const StrategyOptions &options,
                                          std::string &why) {
  SmallVector<MatmulSite> sites = findQuantizedMatmuls(module);
  ReplayPlan plan;
  if (!compilesSitesApart(module, sites))
    return plan;
  bool activations = true;
  for (auto [index, site] : llvm::enumerate(sites)) {
    if (getElementTypeOrSelf(site.contraction->getResult(0).getType()).isF32())
      plan.results.push_back(index);
    if (!getSiteOptions(options, site).int8Activations)
      continue;
    auto type = cast<RankedTensorType>(
        site.contraction.getDpsInputOperand(0)->get().getType());
    if (!type.getElementType().isF32() || countGroupDims(site) == 0) {
      why = "a quantized matmul's activation is not f32, or not grouped "
            "along its innermost dims";
      activations = false;
    }
    plan.activations.push_back(index);
  }
  if (!activations)
    plan.activations.clear();
  return plan;
}

/// What a tap or replay hands over.
enum class Kind : int64_t { Activation = 0, Result = 1 };

/// The contraction of quantized matmul #`index` (findQuantizedMatmuls
/// order) among `found`, the module's; an error at the module when it holds
/// fewer than the plan counted.
static FailureOr<linalg::GenericOp>
contractionAt(ModuleOp module, ArrayRef<qforge::MatmulSite> found,
              unsigned index) {
  if (index < found.size())
    return found[index].contraction;
  return module.emitError("qforge-bench: the module holds no quantized matmul "
                          "#")
         << index << " of the matmul-by-matmul plan";
}

/// The declaration of a tap, with its C interface.
static void declareTap(ModuleOp module, StringRef name, TypeRange inputs) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto function = func::FuncOp::create(builder, module.getLoc(), name,
                                       builder.getFunctionType(inputs, {}));
  function.setPrivate();
  function->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
}

/// `value` (an f32 tensor) as an unranked memref, read only.
static Value asUnrankedBuffer(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = bufferization::ToBufferOp::create(builder, loc, memrefType,
                                                   value, /*read_only=*/true);
  return memref::CastOp::create(
      builder, loc, UnrankedMemRefType::get(type.getElementType(), 0), buffer);
}

LogicalResult qforge::tapKernelSites(ModuleOp module, const ReplayPlan &plan) {
  SmallVector<MatmulSite> found = findQuantizedMatmuls(module);
  Builder types(module.getContext());
  Type i64 = types.getI64Type();
  Type unranked = UnrankedMemRefType::get(types.getF32Type(), 0);
  declareTap(module, kCaptureName, {i64, i64, unranked});
  auto tap = [&](OpBuilder &builder, Location loc, unsigned index, Kind kind,
                 Value value) {
    Value site = arith::ConstantIntOp::create(builder, loc, index, 64);
    Value what = arith::ConstantIntOp::create(builder, loc, int64_t(kind), 64);
    func::CallOp::create(
        builder, loc, kCaptureName, TypeRange{},
        ValueRange{site, what, asUnrankedBuffer(builder, loc, value)});
  };
  for (unsigned index : plan.activations) {
    FailureOr<linalg::GenericOp> contraction =
        contractionAt(module, found, index);
    if (failed(contraction))
      return failure();
    OpBuilder builder(*contraction);
    tap(builder, contraction->getLoc(), index, Kind::Activation,
        activationTapPoint(*contraction, countGroupDims(found[index]))->get());
  }
  for (unsigned index : plan.results) {
    FailureOr<linalg::GenericOp> contraction =
        contractionAt(module, found, index);
    if (failed(contraction))
      return failure();
    OpBuilder builder(*contraction);
    builder.setInsertionPointAfter(*contraction);
    tap(builder, contraction->getLoc(), index, Kind::Result,
        (*contraction)->getResult(0));
  }
  return success();
}

/// A tensor like `value` that qforge_verify_replay fills from `value` (or
/// from what the kernel had), inserted at `builder`.
/// `readers` gets the ops that read `value` for the replay.
static Value replayed(OpBuilder &builder, Location loc, unsigned index,
                      Kind kind, unsigned groupDims, Value value,
                      SmallPtrSetImpl<Operation *> &readers) {
  auto type = cast<RankedTensorType>(value.getType());
  Type unranked = UnrankedMemRefType::get(type.getElementType(), 0);
  Value site = arith::ConstantIntOp::create(builder, loc, index, 64);
  Value what = arith::ConstantIntOp::create(builder, loc, int64_t(kind), 64);
  Value dims = arith::ConstantIntOp::create(builder, loc, groupDims, 64);
  Value own = asUnrankedBuffer(builder, loc, value);
  readers.insert(own.getDefiningOp()->getOperand(0).getDefiningOp());
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      readers.insert(
          dynamicSizes
              .emplace_back(tensor::DimOp::create(builder, loc, value, dim))
              .getDefiningOp());
  Value buffer = memref::AllocOp::create(
      builder, loc, MemRefType::get(type.getShape(), type.getElementType()),
      dynamicSizes);
  Value out = memref::CastOp::create(builder, loc, unranked, buffer);
  func::CallOp::create(builder, loc, kReplayName, TypeRange{},
                       ValueRange{site, what, dims, own, out});
  return bufferization::ToTensorOp::create(builder, loc, type, buffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

LogicalResult qforge::replayReferenceSites(ModuleOp module,
                                           const ReplayPlan &plan) {
  SmallVector<MatmulSite> found = findQuantizedMatmuls(module);
  Builder types(module.getContext());
  Type i64 = types.getI64Type();
  Type unranked = UnrankedMemRefType::get(types.getF32Type(), 0);
  declareTap(module, kReplayName, {i64, i64, i64, unranked, unranked});
  for (unsigned index : plan.activations) {
    FailureOr<linalg::GenericOp> contraction =
        contractionAt(module, found, index);
    if (failed(contraction))
      return failure();
    unsigned groupDims = countGroupDims(found[index]);
    OpOperand *operand = activationTapPoint(*contraction, groupDims);
    OpBuilder builder(operand->getOwner());
    SmallPtrSet<Operation *, 4> readers;
    operand->set(replayed(builder, contraction->getLoc(), index,
                          Kind::Activation, groupDims, operand->get(),
                          readers));
  }
  for (unsigned index : plan.results) {
    FailureOr<linalg::GenericOp> contraction =
        contractionAt(module, found, index);
    if (failed(contraction))
      return failure();
    Value result = (*contraction)->getResult(0);
    OpBuilder builder(*contraction);
    builder.setInsertionPointAfter(*contraction);
    SmallPtrSet<Operation *, 4> readers;
    Value kernels = replayed(builder, contraction->getLoc(), index,
                             Kind::Result, 0, result, readers);
    result.replaceUsesWithIf(kernels, [&](OpOperand &use) {
      return !readers.contains(use.getOwner());
    });
  }
  return success();
}

namespace {
/// A ranked f32 memref descriptor as the C interface passes it.
struct View {
  float *data = nullptr;
  std::vector<int64_t> shape, strides;

  explicit View(const void *unranked) {
    struct Unranked {
      int64_t rank;
      void *descriptor;
    };
    const auto *outer = static_cast<const Unranked *>(unranked);
    const auto *words = static_cast<const int64_t *>(outer->descriptor);
    float *aligned = reinterpret_cast<float *>(words[1]);
    data = aligned + words[2];
    shape.assign(words + 3, words + 3 + outer->rank);
    strides.assign(words + 3 + outer->rank, words + 3 + 2 * outer->rank);
  }
  size_t size() const {
    size_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    return count;
  }
  /// Element `flat` in row-major order.
  float &at(size_t flat) const {
    int64_t offset = 0;
    for (size_t dim = shape.size(); dim-- > 0;) {
      offset += int64_t(flat % shape[dim]) * strides[dim];
      flat /= shape[dim];
    }
    return data[offset];
  }
};
} // namespace

extern "C" void _mlir_ciface_qforge_verify_capture(int64_t site, int64_t kind,
                                                   void *value) {
  qforge::SiteReplay::get().capture(site, kind, value);
}

extern "C" void _mlir_ciface_qforge_verify_replay(int64_t site, int64_t kind,
                                                  int64_t groupDims, void *own,
                                                  void *out) {
  qforge::SiteReplay::get().replay(site, kind, groupDims, own, out);
}

qforge::SiteReplay &qforge::SiteReplay::get() {
  static SiteReplay instance;
  return instance;
}

void qforge::SiteReplay::registerSymbols(ExecutionEngine &engine) {
  engine.registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("_mlir_ciface_qforge_verify_capture")] = {
        llvm::orc::ExecutorAddr::fromPtr(&_mlir_ciface_qforge_verify_capture),
        llvm::JITSymbolFlags::Exported};
    symbols[interner("_mlir_ciface_qforge_verify_replay")] = {
        llvm::orc::ExecutorAddr::fromPtr(&_mlir_ciface_qforge_verify_replay),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
}

void qforge::SiteReplay::clear() {
  recorded.clear();
  next = activationCalls = resultCalls = 0;
  activationError = resultError = 0;
  mismatch.clear();
}

void qforge::SiteReplay::capture(int64_t site, int64_t kind,
                                 const void *value) {
  if (mode != Mode::Capture)
    return;
  View view(value);
  Recorded record{site, kind, view.shape, std::vector<float>(view.size())};
  for (size_t index = 0; index < record.values.size(); ++index)
    record.values[index] = view.at(index);
  recorded.push_back(std::move(record));
}

/// max |a - b| / max |b| over `count` elements.
template <typename A, typename B>
static double normalizedDifference(size_t count, A a, B b) {
  double difference = 0, magnitude = 0;
  for (size_t index = 0; index < count; ++index) {
    magnitude = std::max(magnitude, double(std::fabs(b(index))));
    difference = std::max(difference, double(std::fabs(a(index) - b(index))));
  }
  return magnitude > 0 ? difference / magnitude : difference;
}

void qforge::SiteReplay::replay(int64_t site, int64_t kind, int64_t groupDims,
                                const void *ownValue, void *outValue) {
  View own(ownValue), out(outValue);
  size_t count = own.size();
  auto passThrough = [&] {
    for (size_t index = 0; index < count; ++index)
      out.at(index) = own.at(index);
  };
  if (mode != Mode::Replay)
    return passThrough();
  if (next >= recorded.size() || recorded[next].site != site ||
      recorded[next].kind != kind || recorded[next].shape != own.shape) {
    if (mismatch.empty())
      mismatch = "the reference's quantized matmul #" + std::to_string(site) +
                 " (value " + std::to_string(next + 1) +
                 ") does not match the kernel's in order or shape";
    ++next;
    return passThrough();
  }
  const std::vector<float> &kernel = recorded[next++].values;
  // The kernel's value against the reference's own, each call against its
  // own magnitude.
  double difference = normalizedDifference(
      count, [&](size_t index) { return kernel[index]; },
      [&](size_t index) { return own.at(index); });
  if (kind == int64_t(Kind::Result)) {
    ++resultCalls;
    resultError = std::max(resultError, difference);
    for (size_t index = 0; index < count; ++index)
      out.at(index) = kernel[index];
    return;
  }
  ++activationCalls;
  activationError = std::max(activationError, difference);
  // The kernel's rounding (lib/Rewrites/QuantizeActivation.cpp), in f32.
  size_t groupSize = 1;
  for (int64_t dim = 0; dim < groupDims && dim < int64_t(own.shape.size());
       ++dim)
    groupSize *= own.shape[own.shape.size() - 1 - dim];
  for (size_t start = 0; start < count; start += groupSize) {
    // amax as the kernel takes it: the largest sign-cleared bit pattern (a
    // NaN's exceeds every number's), so a NaN gives the kernel's 0 inverse.
    uint32_t amaxBits = 0;
    for (size_t index = start; index < start + groupSize; ++index)
      amaxBits = std::max(amaxBits, llvm::bit_cast<uint32_t>(kernel[index]) &
                                        0x7fffffffu);
    float amax = llvm::bit_cast<float>(amaxBits);
    float inverse = amax > 0 ? limit / amax : 0.0f;
    float step = amax / limit;
    for (size_t index = start; index < start + groupSize; ++index) {
      float quantized = std::nearbyint(kernel[index] * inverse);
      quantized = std::max(std::min(quantized, limit), -limit);
      out.at(index) = quantized * step;
    }
  }
}

bool qforge::SiteReplay::checkConsumed(std::string &error) const {
  if (!mismatch.empty()) {
    error = mismatch;
    return false;
  }
  if (next != recorded.size()) {
    error = "the kernel handed over " + std::to_string(recorded.size()) +
            " values, the reference read " + std::to_string(next);
    return false;
  }
  return true;
}
