//===- SiteReplay.h - a module's reference, matmul by matmul ----*- C++ -*-===//
//
// qforge-bench verifies a module whose quantized matmuls the driver compiles
// apart (a layer, an MLP block, a model) matmul by matmul, so that each
// result is judged at the f32 tolerance against what it owes:
//
// * An int8-activated matmul (--int8-activations) rounds its activation to
//   int8 per group (docs/numerics.md). Where the activation is computed (an
//   MLP's down projection reads silu(gate) * up) the kernel and the
//   reference compute it in different orders; a value within an ulp of a
//   rounding boundary goes one way in one and the other way in the other,
//   and one flip moves a result by a quantum times a weight (7.5e-5 of the
//   largest output on the LLaMA MLP block). So the reference reads each
//   such activation as the kernel had it, rounded as the kernel rounds it:
//
//     amax = max |x| over the group;  inverse = 127 / amax (0 if amax = 0)
//     x' = clamp(roundeven(x * inverse), -127, 127) * (amax / 127)    (f32)
//
//   and first compares the kernel's activation with its own (the code that
//   computed it is checked there).
// * Every matmul with an f32 result: the reference compares the kernel's
//   result with its own, each call against its own magnitude, and goes on
//   with the kernel's -- so what follows a matmul starts from the same
//   values in both (an exp of outputs near 80 turned a few ulps of a correct
//   matmul into 1.5e-5 of the module's result).
//
// The kernel module gets taps (calls that hand a value to the bench) at
// each such matmul; the reference module (the same matmuls, in the same
// order) gets replays. One FIFO of the kernel's values, read in order by
// the reference, which must read them all.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_BENCH_SITEREPLAY_H
#define QFORGE_BENCH_SITEREPLAY_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace qforge {

struct StrategyOptions;

/// Which quantized matmuls (indices in findQuantizedMatmuls order) the
/// reference replays.
struct ReplayPlan {
  /// int8-activated, f32 activation grouped along its innermost dims.
  std::vector<unsigned> activations;
  /// An f32 result.
  std::vector<unsigned> results;
  bool empty() const { return activations.empty() && results.empty(); }
};

/// The plan for `module`: empty when its matmuls are compiled as one script
/// (a single kernel is verified as a whole, as before); `why` says why an
/// int8-activated matmul's activation cannot be replayed (not f32, or not
/// grouped along its innermost dims) -- then none is.
ReplayPlan planSiteReplay(mlir::ModuleOp module, const StrategyOptions &options,
                          std::string &why);

/// The kernel module's taps: before each of `plan.activations`, after each
/// of `plan.results` (qforge_verify_capture).
mlir::LogicalResult tapKernelSites(mlir::ModuleOp module,
                                   const ReplayPlan &plan);

/// The reference module's replays (qforge_verify_replay): each activation
/// of `plan.activations` and each result of `plan.results` is read from a
/// buffer the bench fills.
mlir::LogicalResult replayReferenceSites(mlir::ModuleOp module,
                                         const ReplayPlan &plan);

/// The bench's side of the taps and replays (one per process).
class SiteReplay {
public:
  enum class Mode {
    /// Taps do nothing (the timed calls).
    Off,
    /// The kernel's taps record each value.
    Capture,
    /// The reference reads the recorded values (activations rounded as the
    /// kernel rounds them), after comparing its own with them.
    Replay,
    /// The reference reads its own values (the plain f32 reference).
    PassThrough,
  };
  static SiteReplay &get();
  void setMode(Mode newMode) { mode = newMode; }
  /// Tests only: the reference's int8 range (127, the kernels'), to show
  /// that a kernel rounding otherwise fails.
  void setLimit(float newLimit) { limit = newLimit; }
  /// The symbols the modules call, for JitKernel.
  static void registerSymbols(mlir::ExecutionEngine &engine);

  void clear();
  /// After a Replay run: every recorded value was read, in order, with the
  /// shape it was recorded with; false, with `error`, otherwise.
  bool checkConsumed(std::string &error) const;
  /// Over the calls of the last Replay run: the largest max |kernel's -
  /// reference's| / max |reference's| of an int8 matmul's activation, and
  /// of a matmul's result.
  double activationDifference() const { return activationError; }
  double resultDifference() const { return resultError; }
  size_t replayedActivations() const { return activationCalls; }
  size_t replayedResults() const { return resultCalls; }

  // Called through the C interface.
  void capture(int64_t site, int64_t kind, const void *value);
  void replay(int64_t site, int64_t kind, int64_t groupDims, const void *own,
              void *out);

private:
  struct Recorded {
    int64_t site, kind;
    std::vector<int64_t> shape;
    std::vector<float> values;
  };
  Mode mode = Mode::Off;
  float limit = 127;
  std::deque<Recorded> recorded;
  size_t next = 0, activationCalls = 0, resultCalls = 0;
  double activationError = 0, resultError = 0;
  std::string mismatch;
};

} // namespace qforge

#endif // QFORGE_BENCH_SITEREPLAY_H
