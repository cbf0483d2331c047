//===- Kernel.cpp - find and check the kernel function --------------------===//

#include "Analysis/DequantContraction.h"
#include "Driver/Pipelines.h"
#include "Rewrites/FactorTwoLevelContraction.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

/// Static ranked tensors and scalars are what the benchmark can allocate and
/// what the out-param ABI describes without runtime sizes.
static LogicalResult checkType(Type type, Location loc, StringRef what,
                               unsigned index) {
  if (type.isIntOrIndexOrFloat())
    return success();
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return emitError(loc) << what << " #" << index << " has type " << type
                          << "; qforge kernels take ranked tensors or scalars";
  // Dynamic dims are checked by the strategies: only the token count of a
  // quantized matmul may be one (docs/abi.md).
  if (llvm::is_contained(tensorType.getShape(), 0))
    return emitError(loc) << what << " #" << index << " has type " << type
                          << ", with a dim of size 0: a kernel without "
                             "elements has nothing to compile";
  // The LLVM lowering addresses i4 (and i1) memrefs one byte per element but
  // loads their vectors bit-packed: the compiled kernel would read the wrong
  // elements. i4 arguments were stored as byte pairs when the input was read
  // (qforge-store-int4-as-byte-pairs); what is left here is a sub-byte result
  // or an i1.
  Type element = tensorType.getElementType();
  if (element.isIntOrFloat() && element.getIntOrFloatBitWidth() < 8)
    return emitError(loc) << what << " #" << index << " has type " << type
                          << ": sub-byte elements are not supported here (i4 "
                             "arguments are, as byte pairs: docs/abi.md)";
  return success();
}

FailureOr<func::FuncOp> qforge::findKernel(ModuleOp module, StringRef name) {
  func::FuncOp kernel;
  if (!name.empty()) {
    kernel = module.lookupSymbol<func::FuncOp>(name);
    if (!kernel || kernel.isExternal()) {
      emitError(module.getLoc())
          << "no function named '" << name << "' with a body in the input";
      return failure();
    }
    if (!kernel.isPublic())
      return emitError(kernel.getLoc())
             << "'" << name << "' is private; only public functions get a "
             << "C interface (docs/abi.md)";
  } else {
    SmallVector<func::FuncOp> candidates;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        candidates.push_back(func);
    if (candidates.size() != 1) {
      emitError(module.getLoc())
          << "expected exactly one public function with a body, found "
          << candidates.size() << "; name one with --entry/--func";
      return failure();
    }
    kernel = candidates.front();
  }
  FunctionType type = kernel.getFunctionType();
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    Location loc = kernel.getNumArguments() > index
                       ? kernel.getArgument(index).getLoc()
                       : kernel.getLoc();
    if (failed(checkType(input, loc, "argument", index)))
      return failure();
  }
  for (auto [index, result] : llvm::enumerate(type.getResults())) {
    if (failed(checkType(result, kernel.getLoc(), "result", index)))
      return failure();
    if (!isa<RankedTensorType>(result))
      return emitError(kernel.getLoc())
             << "result #" << index
             << " is a scalar; qforge kernels return tensors (out-params)";
  }
  if (type.getNumResults() == 0)
    return emitError(kernel.getLoc()) << "the kernel returns nothing";
  return kernel;
}

/// The argument of `kernel` whose values `value` holds, through reshapes,
/// elementwise float conversions (an f16 activation widened to f32) and
/// transposes of the two innermost dims (the elements of one group read in
/// another order, as GGUF's q4_0 pairs element j with j + 16: each group
/// keeps its values).
static std::optional<unsigned> traceToArgument(Value value,
                                               func::FuncOp kernel) {
  while (true) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (argument.getOwner() != &kernel.getBody().front())
        return std::nullopt;
      return argument.getArgNumber();
    }
    Operation *def = value.getDefiningOp();
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (auto transpose = dyn_cast<linalg::TransposeOp>(def)) {
      ArrayRef<int64_t> permutation = transpose.getPermutation();
      size_t rank = permutation.size();
      bool swapsInnermost = rank >= 2 &&
                            permutation[rank - 1] == int64_t(rank) - 2 &&
                            permutation[rank - 2] == int64_t(rank) - 1;
      for (size_t dim = 0; dim + 2 < rank; ++dim)
        swapsInnermost &= permutation[dim] == int64_t(dim);
      if (!swapsInnermost)
        return std::nullopt;
      value = transpose.getInput();
      continue;
    }
    auto convert = dyn_cast<linalg::GenericOp>(def);
    if (!convert || convert.getNumDpsInputs() != 1 ||
        convert.getNumParallelLoops() != convert.getNumLoops() ||
        !llvm::all_of(convert.getIndexingMapsArray(),
                      [](AffineMap map) { return map.isIdentity(); }))
      return std::nullopt;
    Block &body = convert.getRegion().front();
    if (body.getOperations().size() != 2 ||
        !isa<arith::ExtFOp, arith::TruncFOp>(body.front()))
      return std::nullopt;
    value = convert.getDpsInputs().front();
  }
}

int64_t qforge::findSmallestGroupSize(func::FuncOp kernel) {
  int64_t smallest = 0;
  kernel.walk([&](linalg::GenericOp op) {
    std::optional<DequantParts> dequant = matchDequant(op);
    if (!dequant || !dequant->scales)
      return;
    AffineMap scaleMap = op.getMatchingIndexingMap(dequant->scales);
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t size = 1;
    for (unsigned dim = 0; dim < op.getNumLoops(); ++dim) {
      if (scaleMap.isFunctionOfDim(dim))
        continue;
      if (ShapedType::isDynamic(ranges[dim]))
        return;
      size *= ranges[dim];
    }
    smallest = smallest ? std::min(smallest, size) : size;
  });
  return smallest;
}

SmallVector<unsigned> qforge::findActivationArguments(func::FuncOp kernel) {
  SmallVector<unsigned> arguments;
  bool allArguments = true;
  kernel.walk([&](linalg::GenericOp dequant) {
    if (!matchDequant(dequant) || dequant->getNumResults() != 1)
      return;
    for (OpOperand &use : dequant->getResult(0).getUses()) {
      auto contraction = dyn_cast<linalg::LinalgOp>(use.getOwner());
      if (!contraction ||
          !isMultiReductionContractionOf(contraction, use.get()))
        continue;
      for (Value input : contraction.getDpsInputs()) {
        if (input == use.get())
          continue;
        std::optional<unsigned> argument = traceToArgument(input, kernel);
        if (!argument)
          allArguments = false;
        else if (!llvm::is_contained(arguments, *argument))
          arguments.push_back(*argument);
      }
    }
  });
  // The two-level form (llama.cpp's K-quants and q4_0, s·q - o per
  // sub-block): its contraction names its activation operand.
  kernel.walk([&](linalg::GenericOp contraction) {
    if (contraction.getNumReductionLoops() < 2)
      return;
    std::string reason;
    FailureOr<TwoLevelPlan> plan = analyzeTwoLevelContraction(
        contraction, /*lanes=*/1, reason, /*quantizeActivations=*/false,
        /*dividingLanes=*/false, /*laneGroups=*/0, /*dynamicTokens=*/true);
    if (failed(plan))
      return;
    std::optional<unsigned> argument =
        traceToArgument(plan->activationUse->get(), kernel);
    if (!argument)
      allArguments = false;
    else if (!llvm::is_contained(arguments, *argument))
      arguments.push_back(*argument);
  });
  if (!allArguments)
    return {};
  return arguments;
}
