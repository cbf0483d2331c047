//===- SplitAccumulationChains.h - independent partial sums -----*- C++ -*-===//
//
// Unrolling a reduction loop and vectorizing it leaves a chain of float adds,
// each adding one term (a product, which LLVM contracts into an FMA) to the
// previous add: acc = (((a + t1) + t2) + ... + tn). Every link waits for the
// one before (4 cycles per FMA), so a group of 8 steps is 32 cycles of
// latency, and on a core whose scheduler holds only a few such groups the
// loop runs at the latency, not at the FMA units' rate. Splitting the chain
// into k interleaved chains (acc_i sums the terms i, i + k, ...) summed by a
// tree at the end shortens it k times for k - 1 extra adds. It reassociates
// the sum (its rounding changes), so a script applies it only where that is
// acceptable.
//
// Integer sums chain the same way through the accumulator of each
// `vector.multi_reduction <add>` (one per k step of a dot product, e.g. a
// `vpdpbusd` each after lowering: 5 cycles per link on an Intel core).
// Integer addition is associative, so their split is exact.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_SPLITACCUMULATIONCHAINS_H
#define QFORGE_REWRITES_SPLITACCUMULATIONCHAINS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace qforge {

/// A chain of float adds: `links[0]` adds two values that are not links,
/// every later link adds a term to the link before it, whose result has no
/// other use; `links.back()` is the last link (its result is not the
/// accumulator of another link). The terms are read off the links when the
/// chain is rewritten: a term may be the last link of a chain rewritten
/// before, replaced by then.
struct AccumulationChain {
  llvm::SmallVector<mlir::arith::AddFOp> links;
};

/// The chains in `root` whose links are vector adds, in program order, as
/// found before any is rewritten (analysis, no change).
llvm::SmallVector<AccumulationChain>
findVectorAccumulationChains(mlir::Operation *root);

/// Rewrites `chain` into min(chains, links / 2) interleaved chains summed by
/// a balanced tree of adds; the new adds carry the last link's fastmath
/// flags. Returns the number of chains built (1: unchanged, too short).
unsigned splitAccumulationChain(mlir::RewriterBase &rewriter,
                                const AccumulationChain &chain,
                                unsigned chains);

/// A chain of integer sums: every link is a `vector.multi_reduction <add>`
/// on integers whose accumulator is the link before it (in the same block,
/// its only use); `links[0]`'s accumulator is not a link.
struct ReductionChain {
  llvm::SmallVector<mlir::vector::MultiDimReductionOp> links;
};

/// The integer reduction chains in `root`, in program order, as found
/// before any is rewritten (analysis, no change).
llvm::SmallVector<ReductionChain>
findIntegerReductionChains(mlir::Operation *root);

/// Rewrites `chain` into min(chains, links / 2) interleaved chains (the
/// first keeps the chain's accumulator, the others start from zero) summed
/// by a balanced tree of `arith.addi`. Returns the number of chains built
/// (1: unchanged, too short).
unsigned splitIntegerReductionChain(mlir::RewriterBase &rewriter,
                                    const ReductionChain &chain,
                                    unsigned chains);

/// A float sum carried by a loop: the iter_arg `iterArgIndex` of an scf.for
/// whose yielded value is a chain of vector adds starting from that
/// iter_arg, `((acc + t1) + t2) + ... + tn` (what unrolling a loop whose
/// body adds one term leaves), each link's result used only by the next
/// (the last's only by the yield).
/// Between the accumulator's type and the links' the chain may pass
/// vector.extracts at position 0 or vector.shape_casts at its start and
/// vector.broadcasts or shape_casts at its end that keep the element count,
/// and transposes that move unit dims only (the unit dims vectorization
/// leaves: a two-level accumulator of lane groups, vector<1x1x2x8>, is
/// transposed into its loops' order and back). `accOperands[i]` is the operand
/// of `links[i]` that is the accumulator.
struct LoopCarriedSum {
  unsigned iterArgIndex = 0;
  llvm::SmallVector<mlir::arith::AddFOp> links;
  llvm::SmallVector<unsigned> accOperands;
};

/// The loop-carried sums of `loop` with at least 2 links (analysis, no
/// change).
llvm::SmallVector<LoopCarriedSum> findLoopCarriedSums(mlir::scf::ForOp loop);

/// Rewrites the loop-carried sums of `loop` into min(chains, links)
/// interleaved sums each carried by its own iter_arg (the new ones start
/// at -0.0, the identity of addition), added by a balanced tree after the
/// loop that carries the fastmath flags all links share. It reassociates
/// the sum whatever the links' flags say: the caller decides that this is
/// acceptable. Returns the new loop (`loop` when there was nothing to
/// split).
mlir::scf::ForOp splitLoopCarriedSums(mlir::RewriterBase &rewriter,
                                      mlir::scf::ForOp loop, unsigned chains);

} // namespace qforge

#endif // QFORGE_REWRITES_SPLITACCUMULATIONCHAINS_H
