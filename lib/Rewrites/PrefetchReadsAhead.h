//===- PrefetchReadsAhead.h - prefetch later reads --------------*- C++ -*-===//
//
// In a loop over rows (or groups) whose reads stream from memory, ask for
// the lines a later iteration reads while this one computes: for each memref
// read indexed by the loop's induction variable, a memref.prefetch of the
// same read at `iterations` iterations ahead (clamped to the last one, or,
// with `intoParentLoop`, wrapped into the enclosing loop's next iteration),
// one per line the read covers. The analysis (which reads, and why none)
// is apart from the rewrite, as upstream's vectorizeOpPrecondition is.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_PREFETCHREADSAHEAD_H
#define QFORGE_REWRITES_PREFETCHREADSAHEAD_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

#include <optional>
#include <string>

namespace qforge {

struct PrefetchOptions {
  int64_t iterations = 1; ///< how far ahead, in iterations of the loop
  /// When positive, at least this many bytes ahead: the distance becomes
  /// the fewest iterations (no fewer than `iterations`) that take the read
  /// whose address advances most per iteration this far.
  int64_t aheadBytes = 0;
  int64_t lineBytes = 64;   ///< one prefetch per line a read covers
  int64_t minReadBytes = 1; ///< smaller reads get none (e.g. cached scalars)
  int64_t locality = 3;     ///< memref.prefetch's locality hint
  bool intoParentLoop = false;
};

/// A read of a memref at `indices`.
struct MemRefRead {
  mlir::Operation *op;
  mlir::Value memref;
  mlir::ValueRange indices;
};

/// The induction variable, lower and upper bound and step of an scf.for or
/// of a one-dimensional scf.forall (whose iterations a thread runs in
/// order).
struct LoopBounds {
  mlir::Value iv;
  mlir::OpFoldResult lowerBound, upperBound, step;
};

/// What analyzePrefetchReadsAhead found: the loop, its enclosing loop when
/// the prefetches wrap into it, and the reads to prefetch.
struct PrefetchPlan {
  mlir::Operation *loop = nullptr;
  LoopBounds bounds;
  std::optional<LoopBounds> parent;
  llvm::SmallVector<MemRefRead> reads;
  PrefetchOptions options;
};

/// The analysis: fails, with `reason`, on a target that is not an scf.for
/// or a one-dimensional scf.forall, or a loop with no read to prefetch.
/// `notLoop` tells the caller which of the two failed.
mlir::FailureOr<PrefetchPlan>
analyzePrefetchReadsAhead(mlir::Operation *loop, const PrefetchOptions &options,
                          std::string &reason, bool &notLoop);

/// The rewrite: the next iteration's indices computed once at the top of
/// the loop body, a prefetch before each planned read.
void prefetchReadsAhead(mlir::RewriterBase &rewriter, const PrefetchPlan &plan);

} // namespace qforge

#endif // QFORGE_REWRITES_PREFETCHREADSAHEAD_H
