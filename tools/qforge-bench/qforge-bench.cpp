//===- qforge-bench.cpp - verify and time a compiled kernel ---------------===//
//
//   qforge-bench INPUT.mlir [--script=FILE | --int8-activations |
//   --packed-weights] [--func=NAME]
//                [--threads=N] [--save-results=FILE]
//                [--verify] [--tolerance=X] [--json] [--rotate-mib=N]
//                [--min-time-ms=N] [--time=false] [--seed=N]
//
// Compiles the kernel twice -- with the script (the default decode strategy
// without --script) and with the naive reference lowering -- JIT-loads both,
// fills every input with deterministic random data, compares the outputs
// (--verify) and times the scripted kernel hot (same inputs every call) and
// cold (rotating over copies of the inputs totalling >= 4x the last-level
// cache), next to the memory read bandwidth measured in the same run.
//
//===----------------------------------------------------------------------===//

#include "Abi/AbiAttributes.h"
#include "Analysis/ProducerForms.h"
#include "Bench/ComputePeak.h"
#include "Bench/JitKernel.h"
#include "Bench/KernelBuffers.h"
#include "Bench/MemoryBandwidth.h"
#include "Bench/SiteReplay.h"
#include "Bench/WeightPacking.h"
#include "Driver/CompileGuard.h"
#include "Driver/InputCheck.h"
#include "Driver/Options.h"
#include "Driver/Pipelines.h"
#include "Driver/SelectStrategy.h"
#include "Driver/Session.h"
#include "Driver/Strategies.h"
#include "Driver/Target.h"
#include "Driver/TokenDispatch.h"
#include "Gguf/GgmlLibrary.h"
#include "Gguf/GgufFile.h"
#include "Gguf/MatmulKernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <malloc.h>
#include <optional>
#include <thread>
#include <unistd.h>

using namespace mlir;
namespace cl = llvm::cl;

namespace {
cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<input .mlir/.mlirbc>"), cl::Required,
                               cl::cat(qforge::optionCategory()));
cl::opt<std::string> funcName("func", cl::desc("kernel function name"),
                              cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<bool> verify("verify", cl::desc("compare against the reference"),
                     cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<double> tolerance(
    "tolerance",
    cl::desc("largest accepted normalized error max|out-ref| / max|ref| "
             "(default: 1e-5, or for f16 / bf16 results 1e-3 / 8e-3, their "
             "rounding; docs/numerics.md)"),
    cl::cat(qforge::optionCategory()), cl::init(1e-5));
cl::opt<std::string> oracleName(
    "oracle",
    cl::desc("with --verify, also check the kernel against another "
             "implementation: 'ggml' (a kernel of one matmul y = x . W^T whose "
             "W is GGUF blocks: W dequantized by ggml's own to_float, the "
             "products summed in f64; docs/gguf.md)"),
    cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<std::string> peerName(
    "peer",
    cl::desc("also time another implementation on the same bytes, threads "
             "and regimes: 'ggml' (ggml_mul_mat on a plain CPU buffer, for a "
             "kernel --oracle=ggml takes; docs/gguf.md)"),
    cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<std::string> ggmlCpuVariant(
    "ggml-cpu",
    cl::desc("the ggml CPU backend --peer=ggml loads (libggml-cpu-<name>.so; "
             "default: the best this CPU runs)"),
    cl::cat(qforge::optionCategory()), cl::init(""));
cl::opt<std::string> weightsFile(
    "weights",
    cl::desc("a GGUF file whose tensors the kernel's weight arguments name "
             "(qforge.gguf_tensor, written by qforge-gguf --tensor): those "
             "arguments read the file's bytes, mapped, not copied"),
    cl::value_desc("FILE.gguf"), cl::cat(qforge::optionCategory()),
    cl::init(""));
cl::opt<std::string> ggmlDirectory(
    "ggml-dir",
    cl::desc("the folder of ggml's libggml-base.so (--oracle=ggml)"),
    cl::cat(qforge::optionCategory()),
    cl::init(qforge::defaultGgmlDirectory().str()));
cl::opt<bool> exactInt8Activations(
    "exact-int8-activations",
    cl::desc("with --int8-activations --verify: the f32 tolerance applies "
             "(default) -- a module's reference reads each int8 matmul's "
             "activation as the kernel rounded it, a single kernel gets "
             "activations the per-group int8 quantization represents "
             "exactly; =false: random activations against the f32 "
             "reference, whose int8 rounding shows in the error (pass "
             "--tolerance)"),
    cl::cat(qforge::optionCategory()), cl::init(true));
cl::opt<unsigned> int8ReferenceLimit(
    "int8-reference-limit",
    cl::desc("tests only: the exact int8 reference rounds activations to "
             "[-L, L] (the kernels: 127), to show a kernel that rounds "
             "otherwise fails"),
    cl::Hidden, cl::init(127));
cl::opt<bool> json("json", cl::desc("end with one JSON line of the figures"),
                   cl::cat(qforge::optionCategory()), cl::init(false));
cl::opt<unsigned> rotateMiB(
    "rotate-mib",
    cl::desc("bytes of input copies to rotate over in the cold regime "
             "(default: 4x the last-level cache, at least 256 MiB)"),
    cl::cat(qforge::optionCategory()), cl::init(0));
cl::opt<unsigned> minTimeMs("min-time-ms",
                            cl::desc("time spent in each regime"),
                            cl::cat(qforge::optionCategory()), cl::init(500));
cl::opt<bool> doTime("time",
                     cl::desc("time the kernel (--time=false: only "
                              "compile, run and verify)"),
                     cl::cat(qforge::optionCategory()), cl::init(true));
cl::opt<bool> keepFreedMemory(
    "keep-freed-memory",
    cl::desc("keep memory the kernel frees for its next call instead of "
             "giving it back to the system (glibc's mmap and trim "
             "thresholds raised; default on): a kernel allocates its "
             "temporaries every call, and pages handed back fault in again "
             "on the next one (docs/abi.md)"),
    cl::cat(qforge::optionCategory()), cl::init(true));
cl::opt<unsigned> seed("seed", cl::desc("seed of the random inputs"),
                       cl::cat(qforge::optionCategory()), cl::init(1));
cl::opt<std::string> saveResults(
    "save-results",
    cl::desc("write the scripted kernel's results (raw bytes, in order) to "
             "this file, e.g. to compare thread counts bit for bit"),
    cl::cat(qforge::optionCategory()), cl::init(""));

cl::opt<std::string> dimValues(
    "dim",
    cl::desc("run-time sizes of a dynamic token count M, as M=V[,V...]: "
             "each value is verified and timed in turn"),
    cl::value_desc("M=values"), cl::cat(qforge::optionCategory()),
    cl::init(""));

using Clock = std::chrono::steady_clock;

/// `type` with every dynamic dim (the token count) set to `tokens`.
FunctionType withTokens(FunctionType type, int64_t tokens) {
  auto map = [&](TypeRange types) {
    return llvm::map_to_vector(
        types, [&](Type t) { return qforge::withTokenCount(t, tokens); });
  };
  return FunctionType::get(type.getContext(), map(type.getInputs()),
                           map(type.getResults()));
}

/// The values of --dim: "M=1,17,128" -> {1, 17, 128}; empty on error (with
/// `error` set).
std::vector<int64_t> parseTokenCounts(llvm::StringRef text,
                                      std::string &error) {
  std::vector<int64_t> values;
  llvm::StringRef list = text;
  if (!list.consume_front("M=")) {
    error =
        "--dim takes M=V[,V...] (the token count), not '" + text.str() + "'";
    return {};
  }
  llvm::SmallVector<llvm::StringRef> parts;
  list.split(parts, ',');
  // More rows than this would not fit in memory with any real N.
  constexpr int64_t kMaxTokens = int64_t(1) << 24;
  for (llvm::StringRef part : parts) {
    int64_t value;
    if (part.trim().getAsInteger(10, value) || value < 1 ||
        value > kMaxTokens) {
      error = "--dim: '" + part.str() + "' is not a token count from 1 to " +
              std::to_string(kMaxTokens);
      return {};
    }
    values.push_back(value);
  }
  return values;
}

int fail(const llvm::Twine &message) {
  llvm::errs() << "qforge-bench: error: " << message << "\n";
  return 1;
}

void progress(const llvm::Twine &message) {
  llvm::errs() << "qforge-bench: " << message << "\n";
}

struct Timing {
  double minUs = 0, medianUs = 0;
  size_t calls = 0;
};

/// Runs `run(i % sets)` until `minTimeMs` has passed and every one of the
/// `sets` ran at least twice (after two warm-up runs); per-run wall times.
Timing timeRuns(size_t sets, llvm::function_ref<void(size_t)> run) {
  for (size_t warmup = 0; warmup < 2; ++warmup)
    run(warmup % sets);
  std::vector<double> samples;
  auto begin = Clock::now();
  auto budget = std::chrono::milliseconds(minTimeMs);
  for (size_t i = 0;; ++i) {
    auto start = Clock::now();
    run(i % sets);
    auto end = Clock::now();
    samples.push_back(
        std::chrono::duration<double, std::micro>(end - start).count());
    if (end - begin >= budget && samples.size() >= 2 * sets &&
        samples.size() >= 10)
      break;
  }
  std::sort(samples.begin(), samples.end());
  return {samples.front(), samples[samples.size() / 2], samples.size()};
}

/// Calls `kernel` on calls[i % calls.size()] (timeRuns).
Timing timeCalls(const qforge::JitKernel &kernel,
                 std::vector<qforge::KernelCall> &calls) {
  std::vector<void **> packed;
  for (qforge::KernelCall &call : calls)
    packed.push_back(call.getPackedArguments());
  return timeRuns(packed.size(), [&](size_t i) { kernel.call(packed[i]); });
}

/// One JSON object on one line, keys in the order written.
void printJson(llvm::function_ref<void(llvm::json::OStream &)> attributes) {
  {
    llvm::json::OStream out(llvm::outs());
    out.object([&] { attributes(out); });
  }
  llvm::outs() << "\n";
}

/// Errors are NaN when nothing was verified; JSON has no NaN.
llvm::json::Value finiteOrNull(double value) {
  return std::isfinite(value) ? llvm::json::Value(value)
                              : llvm::json::Value(nullptr);
}

/// Floating-point operations of one call of the kernel as given: 2 per
/// iteration (a multiply and an add) of every linalg op with a reduction
/// (the contraction), counted on its loop ranges at `tokens` rows.
/// As a function of the token count, which a dynamic loop is (the only
/// dim that may be): read before the strategy transforms the kernel.
std::function<double(int64_t)> countFlops(func::FuncOp kernel) {
  // Each op's static iterations and its number of dynamic loops.
  std::vector<std::pair<double, int>> terms;
  kernel.walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() == 0)
      return;
    double iterations = 1;
    int dynamicLoops = 0;
    for (int64_t range : op.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(range))
        ++dynamicLoops;
      else
        iterations *= double(range);
    }
    terms.push_back({iterations, dynamicLoops});
  });
  return [terms](int64_t tokens) {
    double flops = 0;
    for (auto [iterations, dynamicLoops] : terms)
      flops += 2 * iterations * std::pow(double(tokens), dynamicLoops);
    return flops;
  };
}

/// Makes the reference's function `name` return the f32 values the
/// normalization rounds to a narrower result type (generics marked
/// kResultRoundingAttr, read through reshapes) instead of the rounded ones.
func::FuncOp skipResultRounding(ModuleOp reference, llvm::StringRef name) {
  auto function = reference.lookupSymbol<func::FuncOp>(name);
  auto ret = cast<func::ReturnOp>(function.getBody().back().getTerminator());
  bool changed = false;
  for (OpOperand &returned : ret->getOpOperands()) {
    // Reshapes between the rounding and the return are redone on the wider
    // values.
    SmallVector<Operation *> reshapes;
    Value value = returned.get();
    while (Operation *def = value.getDefiningOp()) {
      if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
        break;
      reshapes.push_back(def);
      value = def->getOperand(0);
    }
    auto rounding = value.getDefiningOp<linalg::GenericOp>();
    if (!rounding || !rounding->hasAttr(qforge::kResultRoundingAttr))
      continue;
    OpBuilder builder(ret);
    Value wide = rounding.getDpsInputOperand(0)->get();
    Type wideElement = getElementTypeOrSelf(wide.getType());
    for (Operation *reshape : llvm::reverse(reshapes)) {
      IRMapping mapping;
      mapping.map(reshape->getOperand(0), wide);
      Operation *clone = builder.clone(*reshape, mapping);
      auto type = cast<RankedTensorType>(reshape->getResult(0).getType());
      clone->getResult(0).setType(type.clone(wideElement));
      wide = clone->getResult(0);
    }
    returned.set(wide);
    changed = true;
  }
  if (changed)
    function.setFunctionType(FunctionType::get(reference.getContext(),
                                               function.getArgumentTypes(),
                                               ret->getOperandTypes()));
  return function;
}

/// max|a - b| and max|b| over every element of every result.
std::pair<double, double> compare(const qforge::KernelCall &actual,
                                  const qforge::KernelCall &expected) {
  double maxAbsError = 0, maxMagnitude = 0;
  for (auto [out, ref] : llvm::zip(actual.results, expected.results)) {
    for (size_t i = 0, e = ref.getNumElements(); i < e; ++i) {
      double a = out.getAsDouble(i), b = ref.getAsDouble(i);
      // The same non-finite value on both sides (NaN and NaN, +inf and
      // +inf, as a NaN or infinite result fill gives) agrees; any other
      // NaN or infinite difference is an infinite error.
      bool same = (std::isnan(a) && std::isnan(b)) ||
                  (std::isinf(a) && std::isinf(b) && (a > 0) == (b > 0));
      double error = same ? 0.0 : std::fabs(a - b);
      if (std::isnan(error))
        error = INFINITY;
      if (!std::isfinite(b))
        b = 0; // a non-finite reference value sets no magnitude
      maxAbsError = std::max(maxAbsError, error);
      maxMagnitude = std::max(maxMagnitude, std::fabs(b));
    }
  }
  return {maxAbsError, maxMagnitude};
}
} // namespace

/// W's blocks joined from its fields apart (--oracle=ggml on the --fields
/// form): `fields` holds, for each field of the type's block in block order
/// (qforge::gguf::blockFields), its argument's buffer, N x G blocks' worth
/// of it (e.g. q4_K's scales N x G x 12 bytes, its d N x G halves); each
/// block is its fields' bytes at their offsets.
static std::optional<qforge::TensorBuffer>
joinBlockFields(const qforge::gguf::TensorType &type,
                ArrayRef<const qforge::TensorBuffer *> fields,
                std::string &error) {
  ArrayRef<qforge::gguf::BlockField> layout =
      qforge::gguf::blockFields(type.id);
  ArrayRef<int64_t> shape = fields.empty()
                                ? ArrayRef<int64_t>()
                                : fields.front()->getType().getShape();
  if (layout.empty() || fields.size() != layout.size() || shape.size() < 2) {
    error = "--oracle=ggml: the fields of " + type.name.str() +
            " are not arguments N x G x (bytes of the field)";
    return std::nullopt;
  }
  const int64_t blockCount = shape[0] * shape[1];
  for (auto [field, buffer] : llvm::zip(layout, fields))
    if (buffer->getNumBytes() != size_t(blockCount) * field.bytes) {
      error = "--oracle=ggml: field '" + field.name.str() + "' of " +
              type.name.str() + " holds " +
              std::to_string(buffer->getNumBytes()) + " bytes, not " +
              std::to_string(field.bytes) + " per block of " +
              std::to_string(shape[0]) + " x " + std::to_string(shape[1]);
      return std::nullopt;
    }
  auto blocksType = RankedTensorType::get(
      {shape[0], shape[1], int64_t(type.blockBytes)},
      IntegerType::get(fields.front()->getType().getContext(), 8));
  qforge::TensorBuffer blocks(blocksType);
  auto *out = static_cast<uint8_t *>(blocks.getData());
  for (auto [field, buffer] : llvm::zip(layout, fields)) {
    auto *in = static_cast<const uint8_t *>(buffer->getData());
    for (int64_t block = 0; block < blockCount; ++block)
      std::memcpy(out + block * type.blockBytes + field.offset,
                  in + block * field.bytes, field.bytes);
  }
  return blocks;
}

/// --oracle=ggml: y = x . W^T with W dequantized by ggml's to_float of its
/// type and the products summed in f64, against the kernel's `result`;
/// prints the comparison and returns the normalized error (std::nullopt
/// with `error` when the shapes do not fit).
/// N, K and M of y = x . W^T for W of GGUF blocks (N rows of K weights),
/// x and y; std::nullopt with `error` when the buffers do not fit.
struct GgmlShape {
  int64_t rows, depth, tokens;
};
static std::optional<GgmlShape>
getGgmlShape(const qforge::gguf::TensorType &type,
             const qforge::TensorBuffer &blocks,
             const qforge::TensorBuffer &activation,
             const qforge::TensorBuffer &result, std::string &error) {
  ArrayRef<int64_t> shape = blocks.getType().getShape();
  int64_t rows = shape.empty() ? 0 : shape.front();
  int64_t blockCount = int64_t(blocks.getNumBytes() / type.blockBytes);
  if (rows <= 0 || blocks.getNumBytes() % type.blockBytes != 0 ||
      blockCount % rows != 0) {
    error = "the weights are not rows of whole " + type.name.str() + " blocks";
    return std::nullopt;
  }
  int64_t depth = blockCount / rows * type.blockElements; // K
  if (depth <= 0) {
    error = "the weights hold no block";
    return std::nullopt;
  }
  int64_t tokens = int64_t(activation.getNumElements()) / depth;
  if (tokens * depth != int64_t(activation.getNumElements()) ||
      int64_t(result.getNumElements()) != tokens * rows) {
    error = "x (" + std::to_string(activation.getNumElements()) +
            " elements) and y (" + std::to_string(result.getNumElements()) +
            ") are not M x K and M x N for W of " + std::to_string(rows) +
            " x " + std::to_string(depth);
    return std::nullopt;
  }
  return GgmlShape{rows, depth, tokens};
}

static std::optional<double> checkAgainstGgml(
    const qforge::GgmlLibrary &ggml, const qforge::gguf::TensorType &type,
    const qforge::TensorBuffer &blocks, const qforge::TensorBuffer &activation,
    const qforge::TensorBuffer &result, double tolerance, std::string &error) {
  std::optional<GgmlShape> shape =
      getGgmlShape(type, blocks, activation, result, error);
  if (!shape)
    return std::nullopt;
  auto [rows, depth, tokens] = *shape;
  std::vector<float> weights(size_t(rows * depth));
  if (!ggml.dequantize(type.id, blocks.getData(), weights.data(), rows * depth,
                       error))
    return std::nullopt;
  std::vector<double> x(size_t(tokens * depth));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = activation.getAsDouble(i);
  double maxError = 0, magnitude = 0;
  for (int64_t m = 0; m < tokens; ++m)
    for (int64_t n = 0; n < rows; ++n) {
      const float *w = &weights[size_t(n * depth)];
      const double *xm = &x[size_t(m * depth)];
      double sum = 0;
      for (int64_t k = 0; k < depth; ++k)
        sum += xm[k] * double(w[k]);
      double out = result.getAsDouble(size_t(m * rows + n));
      double difference = std::fabs(out - sum);
      if (std::isnan(difference))
        difference = std::numeric_limits<double>::infinity();
      maxError = std::max(maxError, difference);
      magnitude = std::max(magnitude, std::fabs(sum));
    }
  double normalized = magnitude > 0 ? maxError / magnitude : maxError;
  llvm::outs() << llvm::format(
      "verify: against ggml (%s dequantized by its to_float, sums in f64): "
      "max_abs_err %.3g, normalized %.3g (max |ref| %.4g, tolerance %.3g): "
      "%s\n",
      type.name.str().c_str(), maxError, normalized, magnitude, tolerance,
      normalized <= tolerance ? "PASS" : "FAIL");
  return normalized;
}

int main(int argc, char **argv) {
  if (std::optional<int> status = qforge::runReadCheckIfAsked(argc, argv))
    return *status;
  llvm::InitLLVM init(argc, argv);
  // libLLVM.so already registers a global --threads option of its own, so
  // qforge-bench takes --threads=N off the command line before LLVM parses it.
  unsigned threads = 1;
  std::vector<char *> arguments;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef argument(argv[i]);
    if ((argument == "--threads" || argument == "-threads") && i + 1 < argc)
      argument = argv[++i]; // "--threads N"
    else if (!argument.consume_front("--threads=") &&
             !argument.consume_front("-threads="))
      argument = "";
    if (!argument.empty()) {
      // More threads than this is a typo, not a machine: OpenMP would try
      // to start them all.
      constexpr unsigned kMaxThreads = 1024;
      if (argument.getAsInteger(10, threads) || threads == 0 ||
          threads > kMaxThreads)
        return fail("--threads takes a number from 1 to " +
                    std::to_string(kMaxThreads) + ", not '" + argument + "'");
      continue;
    }
    arguments.push_back(argv[i]);
  }
  cl::extrahelp threadsHelp(
      "\n  --threads=N   OpenMP threads for kernels whose strategy uses "
      "scf.forall\n                (default 1); the bandwidth is measured "
      "with as many\n");
  cl::HideUnrelatedOptions(qforge::optionCategory());
  cl::ParseCommandLineOptions(arguments.size(), arguments.data(),
                              "qforge kernel benchmark\n");
  if (!std::isfinite(tolerance) || tolerance < 0)
    return fail("--tolerance takes a finite number >= 0, not '" +
                std::to_string(tolerance.getValue()) + "'");
  // The kernel allocates its temporaries on every call (a prefill's packed
  // activation and packed result: megabytes at M = 128). glibc gives a
  // freed block of more than 128 KiB (later: of the largest freed so far)
  // back to the system, so each call faults those pages in again -- on
  // this project's virtual machines that cost 3x the kernel at M = 128,
  // N = 8192. An application keeps such memory (a pool, or these
  // thresholds); the bench measures the kernel as it would run there.
  if (keepFreedMemory) {
    constexpr int kKeepBytes = 1 << 30;
    mallopt(M_MMAP_THRESHOLD, kKeepBytes);
    mallopt(M_TRIM_THRESHOLD, kKeepBytes);
  }
  // The OpenMP runtime reads this when the kernel first runs a parallel
  // region; the reference never does.
  setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), /*overwrite=*/1);

  // Bounded time and memory for compiling the kernel (and, later, the
  // reference); running and timing them is not bounded.
  std::optional<qforge::CompileGuard> guard;
  guard.emplace("qforge-bench", inputFile);
  qforge::Session session;
  std::string error;
  guard->setPhase("reading and normalizing the input");
  OwningOpRef<ModuleOp> module = session.parseInput(inputFile, error);
  if (!module)
    return error.empty() ? 1 : fail(error);
  FailureOr<func::FuncOp> kernelFunc = qforge::findKernel(*module, funcName);
  if (failed(kernelFunc))
    return 1;
  std::string name = kernelFunc->getSymName().str();
  FunctionType dynamicType = kernelFunc->getFunctionType();
  // A dynamic token count: verified and timed at each --dim value.
  bool dynamicTokens =
      llvm::any_of(llvm::concat<const Type>(dynamicType.getInputs(),
                                            dynamicType.getResults()),
                   qforge::hasDynamicShape);
  std::vector<int64_t> tokenCounts = {0};
  if (!dimValues.empty()) {
    if (!dynamicTokens)
      return fail("--dim gives run-time sizes, but @" + name +
                  " has static shapes only");
    tokenCounts = parseTokenCounts(dimValues, error);
    if (tokenCounts.empty())
      return fail(error);
  } else if (dynamicTokens) {
    return fail("@" + name +
                " has a dynamic token count: pass its run-time sizes with "
                "--dim=M=V[,V...]");
  }
  FunctionType type = withTokens(dynamicType, tokenCounts.front());
  std::function<double(int64_t)> flopsAt = countFlops(*kernelFunc);
  // Without --tolerance: what rounding each result to its type allows (an
  // f16 result is within 2^-11 of the exact sum relative to itself, a bf16
  // one within 2^-8), and 1e-5 for f32 sums in another order.
  double acceptedError = tolerance;
  if (tolerance.getNumOccurrences() == 0)
    for (Type result : type.getResults()) {
      Type element = getElementTypeOrSelf(result);
      if (element.isF16())
        acceptedError = std::max(acceptedError, 1e-3);
      else if (element.isBF16())
        acceptedError = std::max(acceptedError, 8e-3);
    }

  // Inputs the benchmark cannot build or hold (the raw inputs, the
  // kernel's and the reference's at once) are refused before compiling,
  // without allocating: the buffers are allocated after the compile, out of
  // the compile guard's count (at each M in turn).
  for (int64_t tokens : tokenCounts)
    if (!qforge::KernelCall::check(withTokens(dynamicType, tokens), 3, error))
      return fail(error);

  qforge::StrategyOptions options = qforge::getStrategyOptions();
  const qforge::TargetChoice &target = options.target;
  // The flags a --strategy-row's family says (as the compile applies them
  // to `options`): the reference and the forms follow them too, so that an
  // int8 row is verified as int8.
  qforge::StrategyOptions rowOptions = options;
  if (failed(qforge::applyRowFlags(rowOptions, error)))
    return fail(error);
  // The forms the strategies read (q4_0's blocks packed as byte pairs),
  // before the kernel's activations and matmuls are looked for: the
  // reference then computes what the kernel computes, site by site.
  qforge::prepareStrategyForms(*module, rowOptions);
  // int8 activations round the activation to 8 bits per group: verified on
  // random floats, the kernel would differ from the f32 reference by that
  // rounding. The arguments it quantizes get values it represents exactly
  // (TensorBuffer::fillInt8Representable), so the kernel owes the
  // reference's f32 sums and the f32 tolerance applies.
  SmallVector<unsigned> exactActivations;
  // Arguments holding GGUF blocks (qforge.gguf_type) get valid blocks.
  llvm::DenseMap<unsigned, std::optional<qforge::gguf::TensorType>>
      ggufArguments;
  for (unsigned argument = 0; argument < kernelFunc->getNumArguments();
       ++argument)
    if (auto typeName = kernelFunc->getArgAttrOfType<StringAttr>(
            argument, qforge::kGgufTypeAttr)) {
      ggufArguments[argument] = qforge::gguf::lookupType(typeName.getValue());
      if (!ggufArguments[argument])
        return fail("argument #" + std::to_string(argument) + " of @" + name +
                    ": " + qforge::kGgufTypeAttr.str() + " '" +
                    typeName.getValue().str() + "' is not a ggml type");
    }
  // --weights=FILE.gguf: the arguments naming a tensor read its bytes.
  std::optional<qforge::gguf::File> weightFile;
  llvm::DenseMap<unsigned, const void *> fileArguments;
  if (!weightsFile.empty()) {
    std::string fileError;
    weightFile = qforge::gguf::File::open(weightsFile, fileError);
    if (!weightFile)
      return fail(fileError);
    for (unsigned argument = 0; argument < kernelFunc->getNumArguments();
         ++argument) {
      auto tensorName = kernelFunc->getArgAttrOfType<StringAttr>(
          argument, qforge::gguf::kGgufTensorAttr);
      if (!tensorName)
        continue;
      std::string where = "argument #" + std::to_string(argument) + " of @" +
                          name + " (tensor '" + tensorName.getValue().str() +
                          "')";
      const qforge::gguf::TensorInfo *tensor =
          weightFile->findTensor(tensorName.getValue());
      if (!tensor)
        return fail(where + ": " + weightsFile + " has no such tensor");
      std::optional<qforge::gguf::TensorType> expected =
          ggufArguments.lookup(argument);
      auto argumentType =
          dyn_cast<RankedTensorType>(dynamicType.getInput(argument));
      if (!expected || tensor->typeId != expected->id)
        return fail(where + ": the file holds it as " +
                    qforge::gguf::lookupType(tensor->typeId)->name.str() +
                    ", the argument is marked " +
                    (expected ? expected->name.str() : std::string("nothing")));
      // N x K/QK x BYTES for ne[1] = N, ne[0] = K: the same bytes in
      // another shape (the transposed matrix) would verify, wrongly.
      SmallVector<int64_t> expectedShape;
      if (tensor->shape.size() == 2)
        expectedShape = {tensor->shape[1],
                         tensor->shape[0] / expected->blockElements,
                         int64_t(expected->blockBytes)};
      if (!argumentType || !argumentType.getElementType().isInteger(8) ||
          argumentType.getShape() != ArrayRef<int64_t>(expectedShape))
        return fail(where + ": the file's tensor is not the argument's " +
                    "shape (N x K/QK x block bytes of its ne[1] = N, ne[0] "
                    "= K)");
      fileArguments[argument] = weightFile->getData(*tensor).data();
    }
    if (fileArguments.empty())
      return fail("--weights=" + weightsFile + ": no argument of @" + name +
                  " names a tensor (" + qforge::gguf::kGgufTensorAttr.str() +
                  "; qforge-gguf --tensor writes kernels that do)");
  }
  // Groups of fewer than 8 weights (e.g. 4) need the extreme in each.
  int64_t groupSize = qforge::findSmallestGroupSize(*kernelFunc);
  int64_t extremePeriod = groupSize > 0 && groupSize < 8 ? groupSize : 8;
  if (verify && rowOptions.int8Activations && exactInt8Activations)
    for (unsigned argument : qforge::findActivationArguments(*kernelFunc))
      if (isa<FloatType>(getElementTypeOrSelf(dynamicType.getInput(argument))))
        exactActivations.push_back(argument);
  // --oracle=ggml: ggml dequantizes the one GGUF argument, the bench sums
  // in f64 against the one float argument, and compares with the result.
  std::optional<qforge::GgmlLibrary> ggml;
  unsigned ggmlWeights = 0, ggmlActivation = 0;
  std::optional<qforge::gguf::TensorType> fieldType;
  // The argument of each field of fieldType's block, in block order.
  SmallVector<std::optional<unsigned>> fieldArguments;
  auto fieldBuffers = [&](const std::vector<qforge::TensorBuffer> &inputs) {
    SmallVector<const qforge::TensorBuffer *> buffers;
    for (std::optional<unsigned> argument : fieldArguments)
      buffers.push_back(&inputs[*argument]);
    return buffers;
  };
  const bool ggmlOracle = !oracleName.empty(), ggmlPeer = !peerName.empty();
  if (ggmlOracle || ggmlPeer) {
    if (ggmlOracle && oracleName != "ggml")
      return fail("--oracle='" + oracleName + "': the oracle is 'ggml'");
    if (ggmlPeer && peerName != "ggml")
      return fail("--peer='" + peerName + "': the peer is 'ggml'");
    if (ggmlOracle && !verify)
      return fail("--oracle=ggml checks the kernel as --verify does: pass "
                  "--verify");
    if (ggmlOracle && rowOptions.int8Activations && !exactInt8Activations)
      return fail("--oracle=ggml compares with f64 sums of the activation as "
                  "given: with --int8-activations it needs activations int8 "
                  "represents exactly (drop --exact-int8-activations=false)");
    if (ggmlPeer && !doTime)
      return fail("--peer=ggml times ggml beside the kernel: it needs the "
                  "timing (drop --time=false)");
    // W is one argument of blocks (qforge.gguf_type), or, for the oracle,
    // its fields apart (qforge.gguf_field "<type>.<field>", the members of
    // ggml's block struct: "q4_0.qs" and "q4_0.d", "q4_K.dmin", ...), which
    // the bench joins into blocks.
    for (unsigned argument = 0; argument < kernelFunc->getNumArguments();
         ++argument)
      if (auto field = kernelFunc->getArgAttrOfType<StringAttr>(
              argument, qforge::kGgufFieldAttr)) {
        auto [typeName, part] = field.getValue().split('.');
        std::optional<qforge::gguf::TensorType> type =
            qforge::gguf::lookupType(typeName);
        ArrayRef<qforge::gguf::BlockField> layout =
            type ? qforge::gguf::blockFields(type->id)
                 : ArrayRef<qforge::gguf::BlockField>();
        const auto *member =
            llvm::find_if(layout, [&, part = part](const auto &candidate) {
              return candidate.name == part;
            });
        if (!type || member == layout.end() ||
            (fieldType && fieldType->id != type->id))
          return fail("argument #" + std::to_string(argument) + " of @" + name +
                      ": " + qforge::kGgufFieldAttr.str() + " '" +
                      field.getValue().str() +
                      "' is not <type>.<field> of one ggml type whose "
                      "fields qforge takes apart (q4_0, q8_0, q4_K, q5_K, "
                      "q6_K: docs/gguf.md)");
        fieldType = type;
        fieldArguments.resize(layout.size());
        fieldArguments[member - layout.begin()] = argument;
      }
    bool allFields =
        fieldType &&
        llvm::all_of(fieldArguments, [](std::optional<unsigned> argument) {
          return argument.has_value();
        });
    SmallVector<unsigned> floats;
    for (unsigned argument = 0; argument < dynamicType.getNumInputs();
         ++argument)
      if (isa<FloatType>(
              getElementTypeOrSelf(dynamicType.getInput(argument))) &&
          !llvm::is_contained(fieldArguments, argument))
        floats.push_back(argument);
    bool blocksForm = ggufArguments.size() == 1 &&
                      dynamicType.getNumInputs() == 2 && !fieldType;
    bool fieldsForm = ggufArguments.empty() && allFields &&
                      dynamicType.getNumInputs() == fieldArguments.size() + 1;
    if ((!blocksForm && !fieldsForm) || floats.size() != 1 ||
        dynamicType.getNumResults() != 1)
      return fail(std::string(ggmlOracle ? "--oracle" : "--peer") +
                  "=ggml takes a kernel of one matmul y = x . W^T: "
                  "two arguments, W marked " +
                  qforge::kGgufTypeAttr.str() +
                  " and x of floats, and one result (what "
                  "examples/gen_gguf_kernel.py writes), or W's fields apart, "
                  "each marked " +
                  qforge::kGgufFieldAttr.str() + " (--fields)");
    if (blocksForm)
      ggmlWeights = ggufArguments.begin()->first;
    ggmlActivation = floats.front();
    std::string loadError;
    ggml = qforge::GgmlLibrary::load(ggmlDirectory, loadError);
    if (!ggml)
      return fail(loadError);
    if (ggmlPeer && !ggml->loadCpuBackend(ggmlCpuVariant, loadError))
      return fail(loadError);
    // ggml's to_float takes the activation as it is: with int8 activations
    // it gets values int8 represents exactly, as the kernel's rounding then
    // changes nothing.
    if (ggmlOracle && rowOptions.int8Activations &&
        !llvm::is_contained(exactActivations, ggmlActivation))
      exactActivations.push_back(ggmlActivation);
  }
  // A module whose quantized matmuls are compiled apart is verified matmul
  // by matmul (Bench/SiteReplay.h): the reference takes the kernel's
  // int8-rounded activations and each matmul's result, after comparing
  // them with its own.
  qforge::ReplayPlan replayPlan;
  if (verify) {
    std::string why;
    replayPlan = qforge::planSiteReplay(*module, rowOptions, why);
    if (!rowOptions.int8Activations || !exactInt8Activations)
      replayPlan.activations.clear();
    else if (!why.empty())
      progress("no exact int8 reference (" + why + ")");
    if (!replayPlan.activations.empty() && !ggmlOracle)
      exactActivations.clear();
    if (!replayPlan.empty())
      progress("verifying matmul by matmul: the reference takes the "
               "activations of " +
               llvm::Twine(replayPlan.activations.size()) +
               " int8-activated matmul(s), rounded as the kernel rounds "
               "them, and the results of " +
               llvm::Twine(replayPlan.results.size()) + " from the kernel");
  }
  if (!exactActivations.empty())
    progress("verifying with activations int8 represents exactly (argument" +
             std::string(exactActivations.size() > 1 ? "s" : "") + " " +
             llvm::join(llvm::map_range(exactActivations,
                                        [](unsigned argument) {
                                          return "#" + std::to_string(argument);
                                        }),
                        ", ") +
             ")");
  OwningOpRef<ModuleOp> reference = module->clone();
  // The reference returns what the normalization's final rounding (of an
  // f16 or bf16 result, computed in f32) reads: the kernel's rounded result
  // is compared with the exact f32 sums (docs/numerics.md).
  func::FuncOp referenceFunc = skipResultRounding(*reference, name);
  FunctionType dynamicReferenceType = referenceFunc.getFunctionType();
  if (!replayPlan.empty() &&
      (failed(qforge::replayReferenceSites(*reference, replayPlan)) ||
       failed(qforge::tapKernelSites(*module, replayPlan))))
    return fail("the matmul-by-matmul reference could not be built (see "
                "above)");

  guard->setPhase("applying the transform strategy to @" + name);
  FailureOr<qforge::StrategyPlan> strategy =
      qforge::applyStrategies(session, *module, *kernelFunc, options, error);
  if (failed(strategy))
    return fail(error);
  std::string script = strategy->describe();
  progress("compiling @" + name + " with " + script);
  // A strategy may have split the parameter packing off the kernel: then
  // <f> takes packed parameters, which <f>_pack_weights makes once, untimed.
  auto scripted = module->lookupSymbol<func::FuncOp>(name);
  if (!scripted)
    return fail("the transform script '" + script + "' removed @" + name);
  FunctionType dynamicKernelType = scripted.getFunctionType();
  FailureOr<std::optional<qforge::WeightPacking>> packing =
      qforge::findWeightPacking(scripted, dynamicType, error);
  if (failed(packing))
    return fail(error);
  if (!*packing && dynamicKernelType != dynamicType)
    return fail("the transform script '" + script +
                "' changed the signature "
                "of @" +
                name +
                " without a weight-packing function "
                "(docs/abi.md): the benchmark cannot build its inputs");
  guard->setPhase("lowering @" + name + " (" + script +
                  ") to the LLVM dialect");
  if (failed(qforge::lowerToLLVMDialect(*module, *strategy)))
    return fail("lowering to the LLVM dialect failed (see above)");
  guard->setPhase("generating machine code for @" + name);
  qforge::JitKernel kernel;
  if (!qforge::compileJitKernel(*module, name, target, kernel, error))
    return fail(error);
  guard.reset();

  qforge::JitKernel oracle;
  if (verify) {
    progress("compiling the reference (linalg to loops)");
    guard.emplace("qforge-bench", inputFile);
    guard->setPhase("compiling the reference of @" + name);
    if (failed(qforge::lowerReferenceToLLVMDialect(*reference)))
      return fail("lowering the reference failed (see above)");
    if (!qforge::compileJitKernel(*reference, name, target, oracle, error))
      return fail(error);
    guard.reset();
  }

  // Verifies and times the kernel at `tokens` rows (0: static shapes).
  auto runAt = [&](int64_t tokens) -> int {
    FunctionType type = withTokens(dynamicType, tokens);
    FunctionType kernelType = withTokens(dynamicKernelType, tokens);
    FunctionType referenceType = withTokens(dynamicReferenceType, tokens);
    double flopsPerCall = flopsAt(tokens);
    if (tokens)
      llvm::outs() << "M = " << tokens << "\n";
    qforge::KernelCall rawCall;
    if (!qforge::KernelCall::create(type, rawCall, error))
      return fail(error);
    // The raw inputs (those the reference takes), and the scripted kernel's.
    for (auto [index, buffer] : llvm::enumerate(rawCall.inputs)) {
      if (const void *bytes = fileArguments.lookup(index))
        buffer.borrow(bytes);
      else if (std::optional<qforge::gguf::TensorType> blocks =
                   ggufArguments.lookup(index))
        buffer.fillBlocks(seed * 1000003ull + index, blocks->blockBytes,
                          qforge::gguf::halfFieldOffsets(blocks->id));
      else if (llvm::is_contained(exactActivations, index))
        buffer.fillInt8Representable(seed * 1000003ull + index, extremePeriod);
      else
        buffer.fillRandom(seed * 1000003ull + index);
    }
    qforge::KernelCall firstCall;
    if (!qforge::KernelCall::create(kernelType, firstCall, error))
      return fail(error);
    if (*packing) {
      progress("packing the parameters once with @" + (*packing)->functionName);
      auto pack = kernel.lookup((*packing)->functionName, error);
      if (!pack)
        return fail(error);
      qforge::packInputs(pack, **packing, rawCall, firstCall);
    } else {
      for (auto [index, to, from] :
           llvm::enumerate(firstCall.inputs, rawCall.inputs)) {
        if (const void *bytes = fileArguments.lookup(index))
          to.borrow(bytes);
        else
          to.copyFrom(from);
      }
    }
    // What one timed call reads: packed parameters (with any padding) when
    // the kernel takes them.
    size_t bytesPerCall = firstCall.getInputBytes();

    bool verified = false;
    double maxAbsError = NAN, normalizedError = NAN;
    if (verify) {
      qforge::KernelCall referenceCall;
      if (!qforge::KernelCall::create(referenceType, referenceCall, error))
        return fail(error);
      for (auto [to, from] : llvm::zip(referenceCall.inputs, rawCall.inputs))
        to.copyFrom(from);
      qforge::SiteReplay &replay = qforge::SiteReplay::get();
      replay.clear();
      replay.setLimit(float(int8ReferenceLimit));
      replay.setMode(replayPlan.empty() ? qforge::SiteReplay::Mode::Off
                                        : qforge::SiteReplay::Mode::Capture);
      kernel.call(firstCall.getPackedArguments());
      bool matmulsAgree = true;
      if (!replayPlan.empty()) {
        // The plain reference first, for its distance.
        progress("running the plain reference");
        replay.setMode(qforge::SiteReplay::Mode::PassThrough);
        oracle.call(referenceCall.getPackedArguments());
        auto [plainError, plainMagnitude] = compare(firstCall, referenceCall);
        progress("running the reference matmul by matmul");
        replay.setMode(qforge::SiteReplay::Mode::Replay);
        oracle.call(referenceCall.getPackedArguments());
        replay.setMode(qforge::SiteReplay::Mode::Off);
        if (!replay.checkConsumed(error))
          return fail("the matmul-by-matmul reference: " + error);
        // The recorded values are not needed any more (a model's can be
        // large beside the cold regime's copies).
        double activationDifference = replay.activationDifference(),
               resultDifference = replay.resultDifference();
        size_t activationCalls = replay.replayedActivations(),
               resultCalls = replay.replayedResults();
        replay.clear();
        matmulsAgree = activationDifference <= acceptedError &&
                       resultDifference <= acceptedError;
        if (activationCalls)
          llvm::outs() << llvm::format(
              "verify: the activations of %zu int8-activated matmul call(s): "
              "normalized %.3g from the reference's own (tolerance %.3g)\n",
              activationCalls, activationDifference, acceptedError);
        if (resultCalls)
          llvm::outs() << llvm::format(
              "verify: the results of %zu matmul call(s): normalized %.3g "
              "from the reference's (each against its own magnitude; "
              "tolerance %.3g)\n",
              resultCalls, resultDifference, acceptedError);
        llvm::outs() << llvm::format(
            "verify: the plain reference (nothing from the kernel): "
            "normalized %.3g (not judged%s)\n",
            plainMagnitude > 0 ? plainError / plainMagnitude : plainError,
            activationCalls ? ": the int8 rounding" : "");
      } else {
        progress("running the reference");
        oracle.call(referenceCall.getPackedArguments());
      }
      auto [absError, magnitude] = compare(firstCall, referenceCall);
      maxAbsError = absError;
      normalizedError = magnitude > 0 ? absError / magnitude : absError;
      verified = normalizedError <= acceptedError && matmulsAgree;
      if (ggmlOracle) {
        progress("running the ggml oracle");
        std::optional<qforge::TensorBuffer> joined =
            fieldType ? joinBlockFields(*fieldType,
                                        fieldBuffers(rawCall.inputs), error)
                      : std::nullopt;
        if (fieldType && !joined)
          return fail(error);
        std::optional<double> ggmlError = checkAgainstGgml(
            *ggml, fieldType ? *fieldType : *ggufArguments.lookup(ggmlWeights),
            fieldType ? *joined : rawCall.inputs[ggmlWeights],
            rawCall.inputs[ggmlActivation], firstCall.results.front(),
            acceptedError, error);
        if (!ggmlError)
          return fail(error);
        verified = verified && *ggmlError <= acceptedError;
      }
      llvm::outs() << llvm::format(
          "verify: max_abs_err %.3g, normalized %.3g (max |ref| %.4g, "
          "tolerance %.3g): %s\n",
          maxAbsError, normalizedError, magnitude, acceptedError,
          verified ? "PASS" : "FAIL");
    }

    if (!saveResults.empty()) {
      if (!verify)
        kernel.call(firstCall.getPackedArguments());
      std::error_code errorCode;
      llvm::raw_fd_ostream out(saveResults, errorCode);
      if (errorCode)
        return fail("cannot write '" + saveResults +
                    "': " + errorCode.message());
      for (const qforge::TensorBuffer &result : firstCall.results)
        out.write(static_cast<const char *>(result.getData()),
                  result.getNumBytes());
      out.close();
      if (out.has_error()) {
        std::string message = out.error().message();
        out.clear_error(); // reported here, not as a fatal error on exit
        return fail("cannot write '" + saveResults + "': " + message);
      }
    }

    // The JSON fields every run reports, timed or not.
    auto writeVerification = [&](llvm::json::OStream &out) {
      out.attribute("func", name);
      if (tokens)
        out.attribute("tokens", tokens);
      out.attribute("threads", threads);
      out.attribute("verified", verified);
      out.attribute("max_abs_err", finiteOrNull(maxAbsError));
      out.attribute("max_rel_err", finiteOrNull(normalizedError));
    };
    if (!doTime) {
      if (json)
        printJson([&](llvm::json::OStream &out) {
          writeVerification(out);
          out.attribute("bytes_per_call", int64_t(bytesPerCall));
        });
      return verify && !verified ? 1 : 0;
    }

    progress("timing, hot");
    std::vector<qforge::KernelCall> hotCalls;
    hotCalls.push_back(std::move(firstCall));
    Timing hot = timeCalls(kernel, hotCalls);

    size_t llcBytes = qforge::lastLevelCacheBytes();
    size_t rotateBytes = rotateMiB ? size_t(rotateMiB) << 20
                                   : std::max<size_t>(4 * llcBytes, 256u << 20);
    size_t copies =
        std::max<size_t>(2, (rotateBytes + bytesPerCall - 1) / bytesPerCall);
    // The copies must fit in memory beside everything else: at most half of
    // it (an over-committed allocation would fail only in a page fault).
    const double physicalBytes =
        double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (physicalBytes > 0 && double(copies) * bytesPerCall > physicalBytes / 2)
      return fail(
          "the cold regime needs " + std::to_string(copies) + " copies of " +
          std::to_string(bytesPerCall >> 20) +
          " MiB of inputs, more than half of this machine's " +
          std::to_string(uint64_t(physicalBytes) >> 20) +
          " MiB of memory; pass a smaller --rotate-mib or --time=false");
    progress("allocating " + llvm::Twine(copies) + " input copies (" +
             llvm::Twine((copies * bytesPerCall) >> 20) +
             " MiB) for the cold regime");
    if (copies * bytesPerCall < 4 * llcBytes)
      progress("note: rotating over less than 4x the last-level cache (" +
               llvm::Twine(llcBytes >> 20) +
               " MiB): the cold figures are not DRAM-bound");
    std::vector<qforge::KernelCall> coldCalls(copies);
    std::vector<qforge::ReadRegion> regions;
    for (qforge::KernelCall &call : coldCalls) {
      if (!qforge::KernelCall::create(kernelType, call, error))
        return fail("the cold regime's input copies: " + error);
      for (auto [to, from] : llvm::zip(call.inputs, hotCalls.front().inputs)) {
        to.copyFrom(from);
        regions.push_back({to.getData(), to.getNumBytes()});
      }
    }
    // The denominator: read passes over the same copies (same pages, same
    // rotation) before and after the cold calls, plain, with software
    // prefetch and as four streams side by side, the best of all kept and the
    // spread printed -- a shared host's bandwidth moves during a run
    // (docs/benchmarks.md).
    progress("measuring the memory read bandwidth");
    constexpr int kReadPassesEachSide = 3;
    qforge::ReadBandwidth readBandwidth;
    qforge::measureReadBandwidth(regions, kReadPassesEachSide, threads,
                                 readBandwidth);
    progress("timing, cold");
    Timing cold = timeCalls(kernel, coldCalls);
    progress("measuring the memory read bandwidth again");
    qforge::measureReadBandwidth(regions, kReadPassesEachSide, threads,
                                 readBandwidth);
    const double memoryGBps = readBandwidth.best();
    // The copies are not needed any more; ggml's take their place.
    coldCalls.clear();

    // --peer=ggml: ggml's mul_mat on the same bytes, threads and regimes.
    std::optional<Timing> peerHot, peerCold;
    size_t peerCopies = 0;
    uint64_t peerBytes = 0;
    double peerDistance = 0;
    if (ggmlPeer) {
      // W's blocks: the argument, or its fields apart joined (ggml reads
      // blocks; qforge's time is the fields' kernel's).
      const qforge::gguf::TensorType type =
          fieldType ? *fieldType : *ggufArguments.lookup(ggmlWeights);
      std::optional<qforge::TensorBuffer> joined =
          fieldType
              ? joinBlockFields(*fieldType, fieldBuffers(rawCall.inputs), error)
              : std::nullopt;
      if (fieldType && !joined)
        return fail(error);
      const qforge::TensorBuffer &blocks =
          fieldType ? *joined : rawCall.inputs[ggmlWeights];
      const qforge::TensorBuffer &x = rawCall.inputs[ggmlActivation];
      const qforge::TensorBuffer &y = hotCalls.front().results.front();
      std::optional<GgmlShape> shape = getGgmlShape(type, blocks, x, y, error);
      if (!shape)
        return fail("--peer=ggml: " + error);
      // As many copies as the kernel's cold regime rotates over (at most
      // 256: each is a ggml context with its own graph).
      peerCopies = std::clamp<size_t>((rotateBytes + blocks.getNumBytes() - 1) /
                                          blocks.getNumBytes(),
                                      2, 256);
      progress("preparing ggml's matmul (" + llvm::Twine(peerCopies) +
               " copies, CPU backend " + ggml->getCpuVariant() + ")");
      std::unique_ptr<qforge::GgmlMatmul> peer = qforge::GgmlMatmul::create(
          *ggml, type.id, shape->rows, shape->depth, shape->tokens, peerCopies,
          int(threads), error);
      if (!peer)
        return fail("--peer=ggml: " + error);
      if (peer->getWeightBytes() != blocks.getNumBytes())
        return fail("--peer=ggml: ggml holds W in " +
                    std::to_string(peer->getWeightBytes()) +
                    " bytes, the kernel in " +
                    std::to_string(blocks.getNumBytes()));
      for (size_t copy = 0; copy < peerCopies; ++copy) {
        std::memcpy(peer->getWeights(copy), blocks.getData(),
                    blocks.getNumBytes());
        float *activation = peer->getActivation(copy);
        for (size_t i = 0; i < x.getNumElements(); ++i)
          activation[i] = float(x.getAsDouble(i));
      }
      bool failed = false;
      // qforge's OpenMP workers spin for libomp's block time (200 ms) after
      // its last parallel region; ggml's threads would compete with them.
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      progress("timing ggml, hot");
      peerHot = timeRuns(1, [&](size_t) { failed |= !peer->run(0); });
      progress("timing ggml, cold");
      peerCold =
          timeRuns(peerCopies, [&](size_t i) { failed |= !peer->run(i); });
      if (failed)
        return fail("--peer=ggml: ggml_backend_graph_compute failed");
      // How far ggml's result is from the kernel's (ggml rounds x to its
      // type's dot-product partner: not judged).
      double maxError = 0, magnitude = 0;
      const float *peerResult = peer->getResult(0);
      for (size_t i = 0; i < y.getNumElements(); ++i) {
        double out = y.getAsDouble(i);
        maxError = std::max(maxError, std::fabs(out - double(peerResult[i])));
        magnitude = std::max(magnitude, std::fabs(out));
      }
      peerDistance = magnitude > 0 ? maxError / magnitude : maxError;
      // Input bytes, as qforge's GB/s counts them.
      peerBytes = blocks.getNumBytes() + x.getNumBytes();
    }

    double hotGBps = bytesPerCall / hot.medianUs / 1e3;
    double coldGBps = bytesPerCall / cold.medianUs / 1e3;
    double coldBestGBps = bytesPerCall / cold.minUs / 1e3;
    double fraction = coldGBps / memoryGBps;
    double hotGFlops = flopsPerCall / hot.medianUs / 1e3;
    double coldGFlops = flopsPerCall / cold.medianUs / 1e3;
    progress("measuring the arithmetic peak");
    double fmaPeakGflops = qforge::measureFmaPeakGflops(threads);
    double dotPeakGops = qforge::measureInt8DotPeakGops(threads);
    llvm::outs() << llvm::format(
        "@%s: %.2f MB of inputs per call, %u thread(s)\n"
        "hot : min %.1f us, median %.1f us (%zu calls), %.1f GB/s\n"
        "cold: min %.1f us, median %.1f us (%zu calls over %zu copies, %zu "
        "MiB), "
        "%.1f GB/s (best %.1f GB/s)\n"
        "memory read bandwidth, same run: %.1f GB/s; cold median reaches "
        "%.1f%%\n"
        "  (best of %zu read passes over the cold copies, half before and "
        "half after the cold calls: %.1f-%.1f GB/s, median %.1f; plain loads "
        "best %.1f, with software prefetch best %.1f, four streams side by "
        "side best %.1f)\n",
        name.c_str(), bytesPerCall / 1e6, threads, hot.minUs, hot.medianUs,
        hot.calls, hotGBps, cold.minUs, cold.medianUs, cold.calls, copies,
        (copies * bytesPerCall) >> 20, coldGBps, coldBestGBps, memoryGBps,
        100 * fraction, readBandwidth.passes.size(), readBandwidth.worst(),
        readBandwidth.best(), readBandwidth.median(),
        readBandwidth.best(qforge::ReadMethod::Plain),
        readBandwidth.best(qforge::ReadMethod::Prefetched),
        readBandwidth.best(qforge::ReadMethod::Streams));
    llvm::outs() << llvm::format(
        "compute: %.3g GFLOP per call (contraction, 2 per multiply-add); "
        "hot %.1f GFLOP/s, cold %.1f GFLOP/s (medians)\n"
        "arithmetic peak, same run: f32 multiply-add %.1f GFLOP/s, int8 dot "
        "product %.1f GOP/s (0: not on this CPU)\n",
        flopsPerCall / 1e9, hotGFlops, coldGFlops, fmaPeakGflops, dotPeakGops);
    if (peerHot)
      llvm::outs() << llvm::format(
          "peer ggml (ggml_mul_mat, plain CPU buffer, backend %s, %u "
          "thread(s)): hot min %.1f us, median %.1f us, %.1f GB/s; cold min "
          "%.1f us, median %.1f us (%zu copies), %.1f GB/s; ggml's cold "
          "median / qforge's: %.2fx; ggml's result %.3g from the "
          "kernel's (normalized, not judged: it rounds x)\n",
          ggml->getCpuVariant().str().c_str(), threads, peerHot->minUs,
          peerHot->medianUs, peerBytes / peerHot->medianUs / 1e3,
          peerCold->minUs, peerCold->medianUs, peerCopies,
          peerBytes / peerCold->medianUs / 1e3,
          peerCold->medianUs / cold.medianUs, peerDistance);
    if (json)
      printJson([&](llvm::json::OStream &out) {
        writeVerification(out);
        out.attribute("us_hot_min", hot.minUs);
        out.attribute("us_hot_median", hot.medianUs);
        out.attribute("us_cold_min", cold.minUs);
        out.attribute("us_cold_median", cold.medianUs);
        out.attribute("bytes_per_call", int64_t(bytesPerCall));
        out.attribute("gbps_hot", hotGBps);
        out.attribute("gbps_cold", coldGBps);
        out.attribute("gbps_cold_best", coldBestGBps);
        out.attribute("mem_read_gbps", memoryGBps);
        out.attribute("mem_read_gbps_min", readBandwidth.worst());
        out.attribute("mem_read_gbps_median", readBandwidth.median());
        out.attribute("mem_read_gbps_plain",
                      readBandwidth.best(qforge::ReadMethod::Plain));
        out.attribute("mem_read_gbps_prefetched",
                      readBandwidth.best(qforge::ReadMethod::Prefetched));
        out.attribute("mem_read_gbps_streams",
                      readBandwidth.best(qforge::ReadMethod::Streams));
        out.attribute("mem_read_passes", int64_t(readBandwidth.passes.size()));
        out.attribute("bw_fraction_cold", fraction);
        out.attribute("rotate_bytes", int64_t(copies * bytesPerCall));
        out.attribute("llc_bytes", int64_t(llcBytes));
        out.attribute("flops_per_call", flopsPerCall);
        out.attribute("gflops_hot", hotGFlops);
        out.attribute("gflops_cold", coldGFlops);
        out.attribute("fma_peak_gflops", fmaPeakGflops);
        out.attribute("int8_dot_peak_gops", dotPeakGops);
        out.attribute("keep_freed_memory", bool(keepFreedMemory));
        if (peerHot) {
          out.attribute("peer", "ggml");
          out.attribute("peer_buffer", "cpu");
          out.attribute("peer_backend", ggml->getCpuVariant());
          out.attribute("peer_us_hot", peerHot->medianUs);
          out.attribute("peer_us_cold", peerCold->medianUs);
          out.attribute("peer_us_cold_min", peerCold->minUs);
        }
      });
    return verify && !verified ? 1 : 0;
  };

  int status = 0;
  for (int64_t tokens : tokenCounts)
    status = std::max(status, runAt(tokens));
  return status;
}
