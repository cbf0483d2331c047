//===- Lowering.cpp - the script, the fixed lowering, the reference -------===//
//
// docs/lowering.md describes these steps for kernel engineers; keep the two
// in sync.
//
//===----------------------------------------------------------------------===//

#include "Driver/Options.h"
#include "Driver/Pipelines.h"
#include "Driver/Target.h"
#include "Driver/TokenDispatch.h"
#include "Patterns/Patterns.h"
#include "Rewrites/BlockReductionsForCache.h"
#include "Rewrites/FlattenContiguousVectors.h"
#include "Rewrites/SplitParameterPacking.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

static llvm::cl::opt<bool> verifyEachPass(
    "verify-each",
    llvm::cl::desc("verify the IR after each pass of the fixed lowering (by "
                   "default it is verified before and after the lowering)"),
    llvm::cl::init(false), llvm::cl::cat(qforge::optionCategory()));

/// Runs a textual pass pipeline (passes on the module, comma-separated).
/// The IR is verified around the whole lowering, not after each pass
/// (--verify-each): verifying a dynamic-M layer after each of the ~40
/// passes took 0.35 s of its 3.1 s compile.
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module->getContext(), ModuleOp::getOperationName());
  pm.enableVerifier(verifyEachPass);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    return emitError(module.getLoc())
           << "internal error: bad pipeline '" << pipeline << "': " << errors;
  }
  return pm.run(module);
}

/// Tensors become memrefs with identity layouts; results become out-params
/// (the caller owns every buffer, see docs/abi.md); temporaries are freed.
/// A loop may yield a new buffer (a tensor carried through scf.for
/// iter_args that an op in the body replaces: it failed with "Yield operand
/// #0 is not equivalent to the corresponding iter bbArg").
static constexpr const char *kBufferize =
    "one-shot-bufferize{bufferize-function-boundaries "
    "allow-return-allocs-from-loops "
    "function-boundary-type-conversion=identity-layout-map}";
/// Then canonicalization and upstream's buffer-deallocation-pipeline, spelled
/// out so that what stays within a function runs nested on func.func, the
/// functions in parallel (the deallocation itself and the lowering of
/// deallocs, which may add a helper function, stay on the module); the IR
/// is the same as with the pipeline (`scripts/check-script-library.sh`).
/// Before the deallocation, a private function stops returning what is its
/// argument (a dynamic M's dispatcher, which writes its result into the
/// destination each call passes): returned, the deallocation would clone
/// it for the caller to own.
static constexpr const char *kAfterBufferize =
    "func.func(canonicalize,cse,expand-realloc{emit-deallocs=false},"
    "canonicalize),drop-equivalent-buffer-results,"
    "ownership-based-buffer-deallocation,"
    "func.func(canonicalize,buffer-deallocation-simplification),"
    "bufferization-lower-deallocations,func.func(cse,canonicalize,"
    "canonicalize)";

/// After vector lowering: everything to the LLVM dialect. bf16 conversions
/// become integer shifts and a round-to-nearest-even (arith-expand): CPUs
/// without AVX512-BF16 would otherwise call compiler-rt's __truncsfbf2,
/// which a JIT-loaded kernel cannot resolve. An scf.forall left
/// by the script runs its iterations on OpenMP threads (libomp; the thread
/// count is the OpenMP runtime's, e.g. OMP_NUM_THREADS); canonicalization
/// then inlines the memref.alloca_scope the conversion wraps each iteration
/// in (a kernel without allocas needs none, and scf-to-cf would give it more
/// than one block). Reductions keep the
/// fastmath flags the script gave them (reassociation only where allowed).
/// The conversions that stay within a function run nested on func.func (or
/// llvm.func): the pass manager then runs them on the functions in
/// parallel (a dynamic-M layer's 21 kernels: this pipeline 1.27 -> 0.76 s
/// on 2 cores), with the same result; so do cf's branches
/// (qforge-convert-cf-to-llvm) and reconcile-unrealized-casts, whose second
/// run on the module only finds what no function holds.
static constexpr const char *kToLLVM =
    "func.func(scf-forall-to-parallel),convert-scf-to-openmp,"
    "func.func(canonicalize,convert-linalg-to-loops,lower-affine,"
    "convert-scf-to-cf,"
    "arith-expand{include-bf16=true},"
    "expand-strided-metadata,lower-affine),finalize-memref-to-llvm,"
    "func.func(convert-vector-to-llvm,convert-ub-to-llvm,convert-math-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm),convert-func-to-llvm,"
    "qforge-convert-cf-to-llvm,"
    "convert-openmp-to-llvm,"
    "llvm.func(reconcile-unrealized-casts),reconcile-unrealized-casts";

namespace {
/// A transfer_read whose permutation map is the identity except for trailing
/// broadcast (constant 0) results -- a per-row scale read for a tile of
/// several rows, e.g. (d0, d1, d2) -> (d0, d1, 0) into vector<2x1x16xf32> --
/// reads one element along each broadcast dim instead (an identity map,
/// vector<2x1x1xf32>) and broadcasts that. Upstream's permutation lowering
/// leaves the original form, which nothing then lowers.
struct SplitMinorBroadcastRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    AffineMap map = read.getPermutationMap();
    unsigned rank = map.getNumResults(), kept = 0;
    if (map.getNumDims() != rank || read.getMask() ||
        !isa<MemRefType>(read.getBase().getType()))
      return failure();
    while (kept < rank &&
           map.getResult(kept) == getAffineDimExpr(kept, getContext()))
      ++kept;
    if (kept == rank)
      return failure();
    for (unsigned i = kept; i < rank; ++i) {
      auto constant = dyn_cast<AffineConstantExpr>(map.getResult(i));
      if (!constant || constant.getValue() != 0)
        return failure();
    }
    VectorType type = read.getVectorType();
    if (type.isScalable())
      return failure();
    SmallVector<int64_t> shape(type.getShape());
    for (unsigned i = kept; i < rank; ++i)
      shape[i] = 1;
    SmallVector<bool> inBounds(rank, true);
    if (auto attr = read.getInBounds())
      for (unsigned i = 0; i < kept; ++i)
        inBounds[i] = cast<BoolAttr>(attr[i]).getValue();
    Value narrow = vector::TransferReadOp::create(
        rewriter, read.getLoc(), VectorType::get(shape, type.getElementType()),
        read.getBase(), read.getIndices(),
        AffineMap::getMultiDimIdentityMap(rank, getContext()),
        read.getPadding(), /*mask=*/Value(),
        rewriter.getBoolArrayAttr(inBounds));
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, type, narrow);
    return success();
  }
};

/// A column read flattened -- a vector<N x 1> transfer_read of the last two
/// dims of a memref whose rows are longer than 1, shape-cast to vector<N>,
/// e.g. the two halves' activation sums of one q4_0 block stored
/// [half, block] -- becomes N scalar loads into a vector<N>: in the rounds
/// the shape cast is lowered to extracts that canonicalization folds back
/// into it, without end (q4_0 in place with int8 activations at 2-4 blocks
/// a row did not lower).
struct ColumnReadAsLoads : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    auto memref = dyn_cast<MemRefType>(read.getBase().getType());
    if (!memref || type.isScalable() || read.getMask() ||
        memref.getRank() < 2 || memref.getShape().back() == 1 ||
        type.getNumElements() > 16 ||
        llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
      return rewriter.notifyMatchFailure(read, "not a small in-bounds read");
    // The elements step along the memref's second-to-last dim; read only
    // to be flattened (the form that cycles; others lower as they are).
    auto flatten = read->hasOneUse()
                       ? dyn_cast<vector::ShapeCastOp>(*read->user_begin())
                       : nullptr;
    if (type.getRank() != 2 || type.getDimSize(1) != 1 ||
        !read.getPermutationMap().isMinorIdentity() || !flatten ||
        flatten.getResultVectorType().getRank() != 1)
      return rewriter.notifyMatchFailure(read, "not a flattened column");
    int64_t stepDim = memref.getRank() - 2;
    Location loc = read.getLoc();
    SmallVector<Value> indices(read.getIndices());
    Value first = indices[stepDim];
    SmallVector<Value> elements;
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      indices[stepDim] = rewriter.createOrFold<arith::AddIOp>(
          loc, first, arith::ConstantIndexOp::create(rewriter, loc, i));
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, read.getBase(), indices));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        flatten, flatten.getResultVectorType(), elements);
    rewriter.eraseOp(read);
    return success();
  }
};

/// The flattening patterns, guarded (Rewrites/FlattenContiguousVectors.h),
/// and the unit dims' drop.
static void addGuardedFlattenPatterns(RewritePatternSet &patterns) {
  qforge::populateGuardedFlattenTransferPatterns(patterns);
  vector::populateDropUnitDimWithShapeCastPatterns(patterns);
}
} // namespace

static void addCanonicalizations(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
}

/// Where to report a problem with `op`: its location (that of the kernel op
/// it came from) or, if it has none, its function's.
static Location reportLocation(Operation *op) {
  Location loc = op->getLoc();
  if (isa<UnknownLoc>(loc))
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      return func->getLoc();
  return loc;
}

/// The first op in `module` (in walk order) of which `typeOf` gives a type,
/// with that type, preferring an op other than a constant: a constant is
/// left as long as its users are, and they say more about the form the
/// script left.
static std::pair<Operation *, Type>
findCulprit(ModuleOp module, function_ref<Type(Operation *)> typeOf) {
  std::pair<Operation *, Type> culprit, constant;
  module.walk([&](Operation *op) {
    Type type = typeOf(op);
    if (!type)
      return WalkResult::advance();
    if (op->hasTrait<OpTrait::ConstantLike>()) {
      if (!constant.first)
        constant = {op, type};
      return WalkResult::advance();
    }
    culprit = {op, type};
    return WalkResult::interrupt();
  });
  return culprit.first ? culprit : constant;
}

/// The error for a round of vector lowering that hit its rewrite cap, at
/// the first op other than a constant still producing an n-D vector (or at
/// the first such constant, if no other op is left) -- at its location if
/// it has one (that of the kernel op it came from), else its function's --
/// or at the module.
static LogicalResult reportNonConvergence(ModuleOp module) {
  auto [culpritOp, culprit] = findCulprit(module, [](Operation *op) -> Type {
    for (Type type : op->getResultTypes())
      if (auto vector = dyn_cast<VectorType>(type);
          vector && vector.getRank() > 1)
        return vector;
    return {};
  });
  Location loc = culpritOp ? reportLocation(culpritOp) : module.getLoc();
  InFlightDiagnostic diag =
      emitError(loc)
      << "vector lowering did not converge (the script leaves vector forms "
         "the fixed lowering cannot reduce to rank 1; docs/lowering.md)";
  if (culprit)
    diag << "; here a " << culprit << " is left";
  return diag;
}

/// Transfers with unit dims the rounds below do not reduce, read or written
/// rank-reduced before them instead: upstream's rank-reducing subview
/// patterns, which take a mask only from a vector.create_mask whose
/// unit-dim sizes are the constant 1, and leave any transfer they cannot
/// rewrite exactly (out of bounds, permuted, at non-zero indices) as it is:
/// - a read whose only use is a shape cast dropping its unit dims (e.g. a
///   block of 9 tokens' values of one group, vector<9x1xi32> cast to
///   vector<9xi32>). In a round, the cast's lowering to extracts and
///   inserts and the canonicalization of those back into the cast rewrite
///   each other without end; the greedy driver revisits the read only when
///   it is down to two users, which the extracts never let happen, so it
///   is never flattened or reduced (the integer prefill with one group per
///   row did not lower);
/// - a transfer of a column, an n-D vector whose one dim of more than one
///   element is not the innermost (e.g. a block of 10 tokens' results of a
///   kernel with one weight row, vector<10x1xf32>), which meets the same
///   cycle through the casts of its flattening. Wider forms with a unit
///   innermost dim are left to the rounds: a packed constant's
///   vector<7x4x1x16x1xf32> folds there into one constant.
static void dropUnitDimsOfTransfers(ModuleOp module) {
  SmallVector<Operation *> transfers;
  module.walk([&](VectorTransferOpInterface transfer) {
    if (!isa<MemRefType>(transfer.getBase().getType()))
      return;
    VectorType type = transfer.getVectorType();
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<int64_t> nonUnit;
    llvm::copy_if(shape, std::back_inserter(nonUnit),
                  [](int64_t size) { return size != 1; });
    if (nonUnit.size() == shape.size())
      return;
    // A column: one dim of more than one element, not the innermost one.
    if (nonUnit.size() == 1 && shape.back() == 1 && !type.isScalable()) {
      transfers.push_back(transfer);
      return;
    }
    auto read = dyn_cast<vector::TransferReadOp>(transfer.getOperation());
    if (!read || !read->hasOneUse())
      return;
    auto cast = dyn_cast<vector::ShapeCastOp>(*read->user_begin());
    if (cast && cast.getResultVectorType().getShape() == ArrayRef(nonUnit))
      transfers.push_back(read);
  });
  if (transfers.empty())
    return;
  RewritePatternSet patterns(module.getContext());
  vector::populateVectorTransferDropUnitDimsPatterns(patterns);
  // Each pattern removes a transfer's unit dims once: it cannot loop. What
  // it leaves, the rounds lower or report.
  (void)applyOpPatternsGreedily(transfers, std::move(patterns));
}

/// Vector ops to rank-1 loads, stores and arithmetic, in two rounds: the
/// second round lowers what the first one unrolled (a single round leaves
/// rank-2 transfers behind, which convert-vector-to-scf would turn into
/// element loops through a stack buffer). Permutation maps with broadcast
/// dims become a rank-1 read + vector.broadcast, not element loops.
static LogicalResult lowerVectors(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  // Column reads first, on their own: in the rounds below the shape_cast
  // that consumes one is lowered to extracts that canonicalization folds
  // back, a cycle whose new ops the driver visits before the read.
  {
    SmallVector<Operation *> reads;
    module.walk([&](vector::TransferReadOp read) { reads.push_back(read); });
    RewritePatternSet patterns(ctx);
    patterns.add<ColumnReadAsLoads>(ctx);
    (void)applyOpPatternsGreedily(reads, std::move(patterns));
  }
  dropUnitDimsOfTransfers(module);
  // Some n-D forms (e.g. a strategy that leaves a batch of rows in its
  // vectors) make these patterns rewrite each other's output without end;
  // the cap turns that into the error below instead of exhausting memory
  // or time. Every shipped strategy on every kernel of the tests and
  // benchmarks lowers with a cap of 1024; the cap is 2^13, or 8 rewrites
  // per op of the module if that is more (a script that unrolls more has
  // more to lower). Such a form reaches it in seconds (2^18 took minutes).
  int64_t numOps = 0;
  module.walk([&](Operation *) { ++numOps; });
  GreedyRewriteConfig config;
  config.setMaxNumRewrites(std::max<int64_t>(1 << 13, 8 * numOps));
  // Each function on its own, the functions in parallel (the patterns do
  // not look beyond a function; a dynamic-M layer has 21 kernels).
  SmallVector<func::FuncOp> functions;
  for (auto function : module.getOps<func::FuncOp>())
    if (!function.isExternal())
      functions.push_back(function);
  auto applyToFunctions = [&](RewritePatternSet &&patterns) {
    FrozenRewritePatternSet frozen(std::move(patterns));
    return failableParallelForEach(ctx, functions, [&](func::FuncOp function) {
      return applyPatternsGreedily(function, frozen, config);
    });
  };
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // An n-D read of contiguous memory becomes one 1-D read (e.g. the
    // vector<16x4xi8> weight bytes of an int8 dot product: one 64-byte load).
    addGuardedFlattenPatterns(patterns);
    // A block of narrow contiguous rows: one read per row.
    qforge::populateFlattenTrailingContiguousReadPatterns(patterns);
    patterns.add<SplitMinorBroadcastRead>(ctx);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    addCanonicalizations(patterns);
    if (failed(applyToFunctions(std::move(patterns))))
      return reportNonConvergence(module);
  }
  {
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferLoweringPatterns(patterns,
                                                   /*maxTransferRank=*/1);
    // Strided n-D transfers that could not be flattened are unrolled into
    // rank-1 ones (no loops, no stack buffer).
    populateVectorToSCFConversionPatterns(
        patterns,
        VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    addCanonicalizations(patterns);
    if (failed(applyToFunctions(std::move(patterns))))
      return reportNonConvergence(module);
  }
  // Math functions on vectors (the exp of a silu) become polynomials in
  // vector instructions; LLVM would otherwise call libm once per lane.
  // Scalar ones keep libm's correctly rounded results.
  SmallVector<Operation *> vectorMath;
  module.walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()) &&
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<VectorType>))
      vectorMath.push_back(op);
  });
  if (!vectorMath.empty()) {
    RewritePatternSet patterns(ctx);
    populateMathPolynomialApproximationPatterns(patterns,
                                                [](StringRef) { return true; });
    (void)applyOpPatternsGreedily(vectorMath, std::move(patterns));
  }
  return success();
}

/// The most elements a vector may have on its way to LLVM: LLVM's type
/// legalization aborts on vectors of 65536 elements or more (measured with
/// LLVM 22: a zero fill of 4096 x 16 f32 vectorized whole). Far beyond
/// any register tile; a vector this long comes from an op a script
/// vectorized without tiling it.
static constexpr int64_t kMaxVectorElements = 1 << 15;

/// Refuses vectors longer than kMaxVectorElements, at the first op that
/// produces or uses one -- preferring an op that is not a constant -- at its
/// location, or its function's if it has none, instead of an abort in the
/// backend. The location is what vectorization gave the op: for a zero fill
/// vectorized whole, the store of the splat has the scalar zero's.
static LogicalResult checkVectorLengths(ModuleOp module) {
  auto tooLongIn = [](TypeRange types) -> VectorType {
    for (Type type : types)
      if (auto vector = dyn_cast<VectorType>(type);
          vector && !vector.isScalable() &&
          vector.getNumElements() > kMaxVectorElements)
        return vector;
    return {};
  };
  auto [culprit, type] = findCulprit(module, [&](Operation *op) -> Type {
    if (VectorType vector = tooLongIn(op->getResultTypes()))
      return vector;
    return tooLongIn(op->getOperandTypes());
  });
  if (!culprit)
    return success();
  auto tooLong = cast<VectorType>(type);
  return emitError(reportLocation(culprit))
         << "a " << tooLong << " (" << tooLong.getNumElements()
         << " elements) is too long for the LLVM backend (at "
            "most "
         << kMaxVectorElements
         << "); the script vectorized an op without tiling it "
            "first";
}

static llvm::cl::opt<uint64_t> maxBlockRegisterOps(
    "max-block-ops",
    llvm::cl::desc("stop with an error when a block of straight-line code "
                   "the script left would be more than this many register "
                   "operations once its vectors are unrolled (0: no bound)"),
    llvm::cl::init(1 << 15), llvm::cl::cat(qforge::optionCategory()));

/// About how many register operations `op` becomes once the fixed lowering
/// has unrolled its n-D vectors to 1-D ones and LLVM has split those into
/// 512-bit registers: those of its widest vector type -- one per 512 bits
/// of each 1-D row, rounded up, times the rows (the product of every dim
/// but the innermost) -- or 1 for an op without vectors. Saturates.
static uint64_t countRegisterOps(Operation *op) {
  constexpr uint64_t kRegisterBits = 512;
  uint64_t registers = 1;
  auto countRegisters = [&](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    if (!vector || vector.getRank() == 0)
      return;
    Type element = vector.getElementType();
    uint64_t elementBits =
        element.isIntOrFloat()
            ? std::max<uint64_t>(element.getIntOrFloatBitWidth(), 1)
            : 64; // index
    uint64_t rowBits = llvm::SaturatingMultiply<uint64_t>(
        std::max<int64_t>(vector.getShape().back(), 1), elementBits);
    uint64_t product = llvm::divideCeil(rowBits, kRegisterBits);
    for (int64_t dim : vector.getShape().drop_back())
      product = llvm::SaturatingMultiply<uint64_t>(product,
                                                   std::max<int64_t>(dim, 1));
    registers = std::max(registers, product);
  };
  llvm::for_each(op->getResultTypes(), countRegisters);
  llvm::for_each(op->getOperandTypes(), countRegisters);
  return registers;
}

/// Refuses a block of straight-line code that the script unrolled (or
/// vectorized whole) into more than --max-block-ops register operations,
/// at the block's first op, before the fixed lowering and LLVM spend time
/// on it: LLVM's instruction scheduling grows faster than linearly with a
/// block's length. Every shipped strategy leaves at most about 9500 (the
/// 4-bit f32 prefill on Intel, M = 128) on the kernels of the tests and
/// benchmarks, while a script that splits a row's sum into one chain per
/// group on 257 groups leaves 61000 in its group loop (7 s to compile, 60 s
/// under the sanitizers), and a one-group-per-row kernel whose activation
/// the packed int8 strategy quantized a whole group at a time left 16500
/// (over 30 s: the bound is a heuristic; the compile guard stays the limit).
static LogicalResult checkBlockLengths(ModuleOp module) {
  uint64_t limit = maxBlockRegisterOps;
  if (!limit)
    return success();
  Operation *longest = nullptr;
  uint64_t longestLength = 0;
  module.walk([&](Block *block) {
    uint64_t length = 0;
    for (Operation &op : *block)
      length = llvm::SaturatingAdd(length, countRegisterOps(&op));
    if (length > longestLength)
      std::tie(longest, longestLength) =
          std::make_pair(&block->front(), length);
  });
  if (longestLength <= limit)
    return success();
  InFlightDiagnostic diag =
      emitError(reportLocation(longest))
      << "a block of straight-line code would be about " << longestLength
      << " register operations, more than " << limit
      << " (--max-block-ops); a script that unrolls without bound, or an op "
         "vectorized whole?";
  if (auto func = longest->getParentOfType<FunctionOpInterface>())
    diag.attachNote(func->getLoc())
        << "in @" << SymbolTable::getSymbolName(func).getValue();
  return failure();
}

/// Public functions get a `_mlir_ciface_<name>` wrapper taking pointers to
/// memref descriptors.
/// So do the functions a public piece of glue (kNotOptimizedAttr: a model's
/// chain of layer calls) calls without results: the glue then passes them
/// its callers' descriptors by pointer (passDescriptorsByPointer).
static void requestCInterfaces(ModuleOp module) {
  UnitAttr unit = UnitAttr::get(module.getContext());
  SymbolTable symbols(module);
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    func->setAttr("llvm.emit_c_interface", unit);
    if (!func->hasAttr(qforge::kNotOptimizedAttr))
      continue;
    func.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal() && call.getNumResults() == 0)
        callee->setAttr("llvm.emit_c_interface", unit);
    });
  }
}

namespace {
/// Where `_mlir_ciface_<f>` takes each argument of `f` from: its argument
/// `argument` itself (a scalar), or field `position` of the descriptor it
/// points to (of type `descriptor`).
struct CInterfaceOperand {
  unsigned argument;
  Type descriptor;
  SmallVector<int64_t> position;
};
} // namespace

/// How `wrapper` (`_mlir_ciface_<f>`, one block that loads each descriptor
/// it is given and calls `f` with the fields) takes apart its arguments
/// into `f`'s; nothing if it does anything else.
static std::optional<SmallVector<CInterfaceOperand>>
analyzeCInterface(LLVM::LLVMFuncOp wrapper, StringRef callee) {
  if (!wrapper.getBody().hasOneBlock())
    return std::nullopt;
  LLVM::CallOp call;
  for (Operation &op : wrapper.getBody().front()) {
    auto candidate = dyn_cast<LLVM::CallOp>(&op);
    if (!candidate || candidate.getCallee() != callee)
      continue;
    if (call)
      return std::nullopt;
    call = candidate;
  }
  if (!call)
    return std::nullopt;
  SmallVector<CInterfaceOperand> operands;
  llvm::SmallBitVector used(wrapper.getNumArguments());
  for (Value operand : call.getArgOperands()) {
    if (auto argument = dyn_cast<BlockArgument>(operand)) {
      operands.push_back({argument.getArgNumber(), Type(), {}});
      used.set(argument.getArgNumber());
      continue;
    }
    auto extract = operand.getDefiningOp<LLVM::ExtractValueOp>();
    auto load = extract ? extract.getContainer().getDefiningOp<LLVM::LoadOp>()
                        : LLVM::LoadOp();
    auto pointer =
        load ? dyn_cast<BlockArgument>(load.getAddr()) : BlockArgument();
    if (!pointer)
      return std::nullopt;
    operands.push_back({pointer.getArgNumber(), load.getType(),
                        llvm::to_vector(extract.getPosition())});
    used.set(pointer.getArgNumber());
  }
  if (!used.all())
    return std::nullopt;
  return operands;
}

/// The descriptor `field` was read from, if it is field `position` of one
/// loaded through a pointer (looking through the insertvalue chains that
/// rebuild a descriptor from its fields).
static LLVM::LoadOp findLoadedDescriptor(Value field,
                                         ArrayRef<int64_t> position) {
  auto extract = field.getDefiningOp<LLVM::ExtractValueOp>();
  if (!extract || extract.getPosition() != position)
    return {};
  Value container = extract.getContainer();
  while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
    if (insert.getPosition() == position)
      return findLoadedDescriptor(insert.getValue(), position);
    container = insert.getContainer();
  }
  return container.getDefiningOp<LLVM::LoadOp>();
}

/// Each call in `glue` (one block) to a function with a C interface goes to
/// `_mlir_ciface_<f>` instead: a descriptor the glue's caller passed goes on
/// as its pointer, one the glue built (a buffer between layers) is stored
/// in a stack slot. A 32-layer model's chain of calls passed ~160 scalars
/// per call, most on the stack: its machine code took longer than the
/// kernels'. The callee's wrapper only loads the descriptors.
static void passDescriptorsByPointer(ModuleOp module, Block &glue) {
  OpBuilder builder(module.getContext());
  Type pointerType = LLVM::LLVMPointerType::get(module.getContext());
  llvm::StringMap<std::optional<SmallVector<CInterfaceOperand>>> analyzed;
  for (auto call : llvm::make_early_inc_range(glue.getOps<LLVM::CallOp>())) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee || call.getNumResults() != 0)
      continue;
    std::string wrapperName = ("_mlir_ciface_" + *callee).str();
    auto wrapper = module.lookupSymbol<LLVM::LLVMFuncOp>(wrapperName);
    if (!wrapper || wrapper.isExternal())
      continue;
    auto [entry, inserted] = analyzed.try_emplace(*callee);
    if (inserted)
      entry->second = analyzeCInterface(wrapper, *callee);
    if (!entry->second || entry->second->size() != call.getArgOperands().size())
      continue;
    ArrayRef<CInterfaceOperand> layout = *entry->second;
    SmallVector<Value> arguments(wrapper.getNumArguments());
    builder.setInsertionPoint(call);
    for (unsigned argument = 0; argument < arguments.size(); ++argument) {
      SmallVector<std::pair<Value, const CInterfaceOperand *>> fields;
      for (auto [operand, where] : llvm::zip(call.getArgOperands(), layout))
        if (where.argument == argument)
          fields.push_back({operand, &where});
      if (!fields.front().second->descriptor) {
        arguments[argument] = fields.front().first;
        continue;
      }
      Type descriptor = fields.front().second->descriptor;
      // The caller's descriptor, if every field is read from it.
      LLVM::LoadOp source;
      for (auto [field, where] : fields) {
        LLVM::LoadOp load = findLoadedDescriptor(field, where->position);
        if (!load || load.getType() != descriptor ||
            (source && load.getAddr() != source.getAddr())) {
          source = {};
          break;
        }
        source = load;
      }
      if (source) {
        arguments[argument] = source.getAddr();
        continue;
      }
      // Otherwise a stack slot (in the entry block) holding the fields.
      Location loc = call.getLoc();
      Value value = LLVM::PoisonOp::create(builder, loc, descriptor);
      for (auto [field, where] : fields)
        value = LLVM::InsertValueOp::create(builder, loc, value, field,
                                            where->position);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&glue);
      Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                           builder.getI64IntegerAttr(1));
      Value slot =
          LLVM::AllocaOp::create(builder, loc, pointerType, descriptor, one);
      builder.setInsertionPoint(call);
      LLVM::StoreOp::create(builder, loc, value, slot);
      arguments[argument] = slot;
    }
    LLVM::CallOp::create(builder, call.getLoc(), wrapper, arguments);
    call.erase();
  }
  // The fields nobody passes any more.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(glue)))
    if (isa<LLVM::ExtractValueOp, LLVM::InsertValueOp, LLVM::PoisonOp,
            LLVM::UndefOp>(op) &&
        op.use_empty())
      op.erase();
  for (Operation &op : llvm::make_early_inc_range(glue))
    if (auto load = dyn_cast<LLVM::LoadOp>(op);
        load && load.use_empty() && !load.getVolatile_())
      load.erase();
}

/// Moves each read of a descriptor's fields in `block` -- its load from the
/// caller's descriptor, and the extractvalue / insertvalue that take it
/// apart and pass it on -- to just before its first user, the last first:
/// each is then live only up to the call that takes it. Compiled without
/// optimization, the 32-layer model's wrapper loaded its 673 descriptors
/// ahead of all calls, and the register allocator spilled every field.
/// The loads read the descriptors the caller passed, which a callee is
/// given only to read them (a layer's C-interface wrapper,
/// passDescriptorsByPointer): moving them past calls reads the same values.
static void sinkDescriptorReadsToUses(Block &block) {
  auto movable = [&](Operation *op) {
    if (!op || op->getBlock() != &block)
      return false;
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      return !load.getVolatile_() &&
             load.getOrdering() == LLVM::AtomicOrdering::not_atomic &&
             isa<BlockArgument>(load.getAddr());
    return isa<LLVM::ExtractValueOp, LLVM::InsertValueOp, LLVM::UndefOp,
               LLVM::PoisonOp>(op);
  };
  // Each op that stays (a call, the terminator) gets the movable ops it
  // reads, operands first, just before it; movable ops nobody reads go
  // before the terminator. Every op is moved once: no order is queried.
  DenseSet<Operation *> placed;
  std::function<void(Operation *, Operation *)> place = [&](Operation *op,
                                                            Operation *before) {
    if (!placed.insert(op).second)
      return;
    for (Value operand : op->getOperands())
      if (Operation *producer = operand.getDefiningOp(); movable(producer))
        place(producer, before);
    op->moveBefore(before);
  };
  SmallVector<Operation *> anchors, unread;
  for (Operation &op : block)
    (movable(&op) ? unread : anchors).push_back(&op);
  for (Operation *anchor : anchors)
    for (Value operand : anchor->getOperands())
      if (Operation *producer = operand.getDefiningOp(); movable(producer))
        place(producer, anchor);
  for (Operation *op : unread)
    place(op, block.getTerminator());
}

/// A public function that is glue not optimized (a model's chain of layer
/// calls, kNotOptimizedAttr) is exported as `_mlir_ciface_<name>` only: its
/// body moves into that wrapper, which passes it the fields of the
/// descriptors it loads, and the expanded-descriptor form goes. For a
/// 32-layer model that form took 5,182 scalar arguments (673 memrefs), and
/// the wrapper's call passing them cost as much machine code as the body
/// (docs/abi.md). A body of more than one block is left as it is.
static void keepOnlyCInterfaceOfGlue(ModuleOp module) {
  for (auto function :
       llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>())) {
    if (!function->hasAttr(qforge::kNotOptimizedAttr) ||
        function.isExternal() || function.isPrivate() ||
        !function.getBody().hasOneBlock())
      continue;
    auto wrapper = module.lookupSymbol<LLVM::LLVMFuncOp>(
        ("_mlir_ciface_" + function.getSymName()).str());
    if (!wrapper || wrapper.isExternal() || !wrapper.getBody().hasOneBlock())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (!uses || !llvm::hasSingleElement(*uses))
      continue;
    auto call = dyn_cast<LLVM::CallOp>(uses->begin()->getUser());
    if (!call || call->getParentOp() != wrapper || call.getNumResults() != 0)
      continue;
    Block &body = function.getBody().front();
    for (auto [argument, operand] :
         llvm::zip(body.getArguments(), call.getArgOperands()))
      argument.replaceAllUsesWith(operand);
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      op.moveBefore(call);
    call.erase();
    passDescriptorsByPointer(module, wrapper.getBody().front());
    sinkDescriptorReadsToUses(wrapper.getBody().front());
    wrapper->setAttr(qforge::kNotOptimizedAttr,
                     function->getAttr(qforge::kNotOptimizedAttr));
    function.erase();
  }
}

/// After conversion only ops that translate to LLVM IR may remain: the LLVM
/// dialect's, and the OpenMP dialect's (a strategy's parallel loops, which
/// the OpenMP translation turns into runtime calls). Anything else (an op
/// of the input or of a script's output that no conversion handles, e.g.
/// math.erf) is reported where it came from, instead of failing later in
/// translation with an unrealized cast.
static LogicalResult checkFullyLowered(ModuleOp module) {
  auto translates = [](Operation *op) {
    return isa<LLVM::LLVMDialect, omp::OpenMPDialect>(op->getDialect());
  };
  Operation *leftover = nullptr;
  module.walk([&](Operation *op) {
    if (op == module.getOperation() || translates(op))
      return WalkResult::advance();
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op)) {
      // Report the op the cast stands in for, when there is one.
      for (Operation *user : cast->getUsers())
        if (!translates(user) && !isa<UnrealizedConversionCastOp>(user)) {
          leftover = user;
          return WalkResult::interrupt();
        }
    }
    leftover = op;
    return WalkResult::interrupt();
  });
  if (!leftover)
    return success();
  return leftover->emitError()
         << "the fixed lowering cannot lower '" << leftover->getName()
         << "' to LLVM (docs/lowering.md lists what it handles); rewrite it "
            "in the input or the script";
}

/// Packs and unpacks a script left (e.g. in `<f>_pack_weights`) become
/// pad + expand_shape + transpose (and the reverse), which bufferize.
static LogicalResult lowerRelayoutOps(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  SmallVector<Operation *> relayouts;
  module.walk([&](Operation *op) {
    if (isa<linalg::PackOp, linalg::UnPackOp>(op))
      relayouts.push_back(op);
  });
  for (Operation *op : relayouts) {
    rewriter.setInsertionPoint(op);
    bool lowered =
        isa<linalg::PackOp>(op)
            ? succeeded(linalg::lowerPack(rewriter, cast<linalg::PackOp>(op)))
            : succeeded(
                  linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)));
    if (!lowered)
      return op->emitError("cannot lower this ")
             << op->getName() << " to pad, reshape and transpose";
  }
  return success();
}

/// Copies between strided buffers (e.g. a pack's padding, lowered to
/// pad + insert_slice) would call the runtime's `memrefCopy`, which neither
/// a shared library nor the JIT links: they become linalg.copy, lowered to
/// loops with the rest.
static void copiesAsLoops(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  SmallVector<memref::CopyOp> copies;
  module.walk([&](memref::CopyOp copy) {
    auto source = cast<MemRefType>(copy.getSource().getType());
    auto target = cast<MemRefType>(copy.getTarget().getType());
    if (!source.getLayout().isIdentity() || !target.getLayout().isIdentity())
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
  }
}

/// Tensor arguments are the caller's inputs: bufferization must copy rather
/// than write into them (docs/abi.md). Except those marked writable
/// already: the destinations a dynamic M's dispatcher writes its result into
/// (qforge::buildTokenDispatch).
static void markArgumentsReadOnly(ModuleOp module) {
  auto readOnly = BoolAttr::get(module.getContext(), false);
  for (auto func : module.getOps<func::FuncOp>())
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (!func.isExternal() && isa<TensorType>(type) &&
          !func.getArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName))
        func.setArgAttr(i,
                        bufferization::BufferizationDialect::kWritableAttrName,
                        readOnly);
}

/// A public function with a result of dynamic shape (a dynamic token count)
/// takes every result as a writable argument instead, after the inputs, and
/// writes it there: what buffer-results-to-out-params does for static
/// results, which it cannot do for dynamic ones (the callee would have to
/// know the caller's buffer size). The C interface is the same
/// (docs/abi.md); the result is dropped after bufferization
/// (dropResultsWrittenToArguments).
static void passDynamicResultsAsArguments(ModuleOp module) {
  auto writable = BoolAttr::get(module.getContext(), true);
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal() ||
        llvm::none_of(func.getResultTypes(), qforge::hasDynamicShape))
      continue;
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    OpBuilder builder(ret);
    for (OpOperand &result : ret->getOpOperands()) {
      unsigned position = func.getNumArguments();
      if (failed(func.insertArgument(
              position, result.get().getType(),
              builder.getDictionaryAttr(
                  builder.getNamedAttr("bufferization.writable", writable)),
              func.getLoc())))
        continue;
      result.set(
          bufferization::MaterializeInDestinationOp::create(
              builder, ret.getLoc(), result.get(), func.getArgument(position))
              .getResult());
    }
  }
}

/// After bufferization: the results passDynamicResultsAsArguments wrote into
/// arguments are returned as those arguments; the function stops returning
/// them (upstream's drop-equivalent-buffer-results leaves public functions
/// alone).
static void dropResultsWrittenToArguments(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal() || func.getNumResults() == 0)
      continue;
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    if (!llvm::all_of(ret.getOperands(), [&](Value value) {
          auto argument = dyn_cast<BlockArgument>(value);
          return argument && argument.getOwner() == &func.getBody().front();
        }))
      continue;
    ret->setOperands({});
    func.setFunctionType(FunctionType::get(
        module.getContext(), func.getArgumentTypes(), TypeRange{}));
  }
}

/// The row-major successor of `position` in `shape` (back to all zeros
/// after the last).
static void nextPosition(MutableArrayRef<int64_t> position,
                         ArrayRef<int64_t> shape) {
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (++position[d] < shape[d])
      return;
    position[d] = 0;
  }
}

namespace {
/// A vector.transfer_read of a splat constant tensor (a constant zero-point
/// packed per call: 93 rows read into 96 lanes) becomes the constant it
/// reads -- the splat, with the padding value in out-of-bounds lanes --
/// instead of a masked read of a global, which the vector lowering unrolled
/// without end.
struct FoldTransferReadOfSplat : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr source;
    if (!matchPattern(read.getBase(), m_Constant(&source)) ||
        !source.isSplat() || read.getMask() ||
        !read.getPermutationMap().isMinorIdentity())
      return rewriter.notifyMatchFailure(read, "not a plain splat read");
    VectorType type = read.getVectorType();
    auto sourceType = cast<ShapedType>(read.getBase().getType());
    // In-bounds lanes: those below the source's size along each dim, from
    // constant indices.
    SmallVector<int64_t> limits;
    unsigned offset = sourceType.getRank() - type.getRank();
    for (auto [dim, index] : llvm::enumerate(read.getIndices())) {
      std::optional<int64_t> start = getConstantIntValue(index);
      if (!start)
        return rewriter.notifyMatchFailure(read, "non-constant index");
      if (dim >= offset)
        limits.push_back(sourceType.getDimSize(dim) - *start);
    }
    Attribute splat = source.getSplatValue<Attribute>();
    bool allInBounds =
        llvm::all_of(llvm::zip(limits, type.getShape()), [](auto pair) {
          return std::get<0>(pair) >= std::get<1>(pair);
        });
    if (allInBounds) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          read, DenseElementsAttr::get(type, splat));
      return success();
    }
    Attribute padding;
    if (!matchPattern(read.getPadding(), m_Constant(&padding)) ||
        type.getNumElements() > (1 << 12))
      return rewriter.notifyMatchFailure(read, "no constant padding");
    SmallVector<Attribute> values;
    SmallVector<int64_t> position(type.getRank(), 0);
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      bool inBounds = true;
      for (auto [lane, limit] : llvm::zip(position, limits))
        inBounds &= lane < limit;
      values.push_back(inBounds ? splat : padding);
      nextPosition(position, type.getShape());
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        read, DenseElementsAttr::get(type, values));
    return success();
  }
};

/// A vector.transpose of a dense constant (the folded read above, when rows
/// are padded: the packed layout of a constant zero-point) becomes the
/// transposed constant; unfolded, the vector lowering moved its lanes one
/// at a time (minutes for 112 x 4 lanes).
struct FoldTransposeOfConstant : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr source;
    VectorType type = transpose.getResultVectorType();
    if (!matchPattern(transpose.getVector(), m_Constant(&source)) ||
        source.isSplat() || type.getNumElements() > (1 << 12))
      return rewriter.notifyMatchFailure(transpose, "not a small constant");
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    ArrayRef<int64_t> sourceShape = transpose.getSourceVectorType().getShape();
    SmallVector<int64_t> sourceStrides(sourceShape.size(), 1);
    for (int64_t d = int64_t(sourceShape.size()) - 2; d >= 0; --d)
      sourceStrides[d] = sourceStrides[d + 1] * sourceShape[d + 1];
    SmallVector<Attribute> sourceValues(source.getValues<Attribute>());
    SmallVector<Attribute> values;
    values.reserve(type.getNumElements());
    // Result position p reads source position q with q[perm[d]] = p[d].
    SmallVector<int64_t> position(type.getRank(), 0);
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
      int64_t offset = 0;
      for (auto [d, lane] : llvm::enumerate(position))
        offset += lane * sourceStrides[permutation[d]];
      values.push_back(sourceValues[offset]);
      nextPosition(position, type.getShape());
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        transpose, DenseElementsAttr::get(type, values));
    return success();
  }
};
} // namespace

/// Tensors to buffers, the same for the scripted kernel and the oracle:
/// read-only inputs, packs lowered first, strided copies as loops after.
static LogicalResult bufferize(ModuleOp module) {
  {
    RewritePatternSet patterns(module.getContext());
    patterns.add<FoldTransferReadOfSplat, FoldTransposeOfConstant>(
        module.getContext());
    qforge::populateComputeElementwiseAtReadsPatterns(patterns);
    qforge::populateReadWrittenElementPatterns(patterns);
    vector::ShapeCastOp::getCanonicalizationPatterns(patterns,
                                                     module.getContext());
    (void)applyPatternsGreedily(module, std::move(patterns));
  }
  markArgumentsReadOnly(module);
  passDynamicResultsAsArguments(module);
  if (failed(lowerRelayoutOps(module)) ||
      failed(runPipeline(module, kBufferize)))
    return failure();
  dropResultsWrittenToArguments(module);
  // Results become out-params (static allocations hoisted to the callers),
  // except a private function's results of dynamic shape (a model's layer
  // function at a dynamic token count): no caller knows their size ahead
  // of the call, so the function returns a buffer it allocated, which the
  // caller owns and the deallocation pipeline frees.
  bufferization::BufferResultsToOutParamsOpts outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  outParams.filterFn = [](func::FuncOp *function) {
    return function->isPublic() ||
           llvm::none_of(function->getResultTypes(), [](Type type) {
             auto memref = dyn_cast<MemRefType>(type);
             return memref && !memref.hasStaticShape();
           });
  };
  if (failed(
          bufferization::promoteBufferResultsToOutParams(module, outParams)) ||
      failed(runPipeline(module, kAfterBufferize)))
    return failure();
  copiesAsLoops(module);
  return success();
}

/// What a kernel's script left as linalg ops on buffers -- the relayout of
/// small tiles, e.g. a prefill's activation packs per 8 tokens, of dynamic
/// size at the last tile -- becomes scalar loops that LLVM neither
/// vectorizes nor unrolls. Every hot loop of a kernel is vectorized by its
/// script; LLVM's vectorization of these (runtime alias checks, a vector
/// epilogue, unrolled by 8, then loop strength reduction over all of it)
/// took about half of each prefill kernel's machine code time (a dynamic
/// int8 layer: 3.36 -> 3.02 s, the prefills' speed unchanged; see
/// docs/lowering.md). The functions around the kernels (a dynamic M's copies
/// of rows) and `<f>_pack_weights` keep LLVM's vectorization.
static void lowerKernelRelayoutsToScalarLoops(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  auto disabled = BoolAttr::get(ctx, true);
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/{},
      LLVM::LoopVectorizeAttr::get(ctx, disabled, {}, {}, {}, {}, {}, {}),
      /*interleave=*/{},
      LLVM::LoopUnrollAttr::get(ctx, disabled, {}, {}, {}, {}, {}, {}),
      /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
      /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{});
  SmallVector<linalg::LinalgOp> leftovers;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (function->hasAttr(qforge::kOptimizeForSizeAttr) ||
        function->hasAttr(qforge::kNotOptimizedAttr) ||
        qforge::isPackWeightsFunction(function))
      continue;
    function.walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        leftovers.push_back(op);
    });
  }
  IRRewriter rewriter(ctx);
  for (linalg::LinalgOp op : leftovers) {
    rewriter.setInsertionPoint(op);
    // What cannot be lowered so is left to convert-linalg-to-loops.
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToLoops(rewriter, op);
    if (failed(loops))
      continue;
    for (Operation *loop : *loops)
      loop->setAttr(LLVM::BrOp::getLoopAnnotationAttrName(
                        OperationName(LLVM::BrOp::getOperationName(), ctx)),
                    annotation);
    rewriter.eraseOp(op);
  }
}

LogicalResult qforge::lowerToLLVMDialect(ModuleOp module,
                                         const TransformScript &script) {
  return lowerToLLVMDialect(module, [&](ModuleOp bufferized) {
    if (!script.defines(TransformScript::kAfterBufferizationEntry))
      return success();
    return script.apply(bufferized, TransformScript::kAfterBufferizationEntry);
  });
}

LogicalResult qforge::lowerToLLVMDialect(
    ModuleOp module,
    llvm::function_ref<LogicalResult(ModuleOp)> afterBufferization) {
  // What the script left, before any pass reads it.
  if (failed(verify(module)) || failed(checkBlockLengths(module)))
    return failure();
  if (failed(bufferize(module)) || failed(afterBufferization(module)))
    return failure();
  if (failed(lowerVectors(module)) || failed(checkVectorLengths(module)))
    return failure();
  lowerKernelRelayoutsToScalarLoops(module);
  requestCInterfaces(module);
  if (failed(runPipeline(module, kToLLVM)))
    return failure();
  keepOnlyCInterfaceOfGlue(module);
  if (failed(verify(module)))
    return failure();
  return checkFullyLowered(module);
}

LogicalResult qforge::lowerReferenceToLLVMDialect(ModuleOp module) {
  // Same values bit for bit; 2.5x faster on the largest kernels measured.
  blockReductionsForCache(module);
  if (failed(bufferize(module)))
    return failure();
  requestCInterfaces(module);
  if (failed(runPipeline(module, kToLLVM)) || failed(verify(module)))
    return failure();
  return checkFullyLowered(module);
}
