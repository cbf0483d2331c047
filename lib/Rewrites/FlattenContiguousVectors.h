//===- FlattenContiguousVectors.h - 1-D row-wise vectors --------*- C++ -*-===//
//
// The activation's per-group work in the integer strategies (its maximum,
// quantization and sums) runs on the activation's packed shape, e.g.
// vector<32x4xf32> for a group of 128 in rows of 4 bytes of k. The fixed
// lowering unrolls an n-D vector op into one op per innermost row: 32
// 128-bit ops where 8 512-bit ones do, plus the inserts and extracts that
// reassemble them for a reduction. When the vectors come from and go to
// contiguous memory, the same work is a 1-D vector<128xf32>: the transfers
// are flattened (upstream's contiguous row-major flattening on memrefs, so
// this runs after bufferization) and the elementwise ops between them
// linearized (upstream's vector linearization), n-D shapes kept only where
// an op needs them, by shape casts that cancel.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_FLATTENCONTIGUOUSVECTORS_H
#define QFORGE_REWRITES_FLATTENCONTIGUOUSVECTORS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"

namespace qforge {

/// Upstream's flattening of a contiguous n-D transfer into a 1-D one
/// (vector::populateFlattenVectorTransferPatterns), tried only where its
/// contiguity check is defined. MLIR 22's vector::isContiguousSlice drops
/// the vector's leading unit dims and compares what is left, but its first
/// dim, with the memref's trailing dims: a vector of unit dims only (e.g.
/// vector<1x1x1xf32>) leaves nothing, and the comparison runs from one past
/// an empty shape (a negative-size memcmp, found by ASan on an f16 kernel
/// with a constant zero-point; docs/reliability.md); a read that broadcasts
/// into more dims than its memref has reads past the memref's shape. And
/// only where the rows are narrower than a 512-bit register: wider rows
/// are whole vectors already, and flattened they made long vectors of an
/// odd register count (a 5 x 32 f32 tile: <160 x float>) that LLVM
/// assembled lane by lane.
void populateGuardedFlattenTransferPatterns(mlir::RewritePatternSet &patterns);

/// A transfer_read of narrow rows from a memref whose trailing dims are
/// contiguous but whose leading ones are not (a block of tokens, each a
/// few contiguous bytes of k: vector<8x1x16x2xi8> with a token stride of
/// K) reads each leading index's contiguous run as one row
/// (vector<8x32xi8> from the memref's trailing dims collapsed) and shape
/// casts it back. Unrolled to rank 1, it was one 2-byte load and shuffle
/// per row of 2: 128 loads in the 4-bit int8 prefill's activation pack,
/// 0.4 s of LLVM's time per kernel on Zen 1. Only rows narrower than
/// kWholeRegisterBits whose collapsed run stays within it (wider ones are
/// whole registers already).
void populateFlattenTrailingContiguousReadPatterns(
    mlir::RewritePatternSet &patterns);

/// Flattens the n-D vector transfers on contiguous memrefs in `root` (the
/// guarded patterns above; reads of narrow contiguous rows a row at a time)
/// and
/// linearizes the elementwise vector ops, constants and bitcasts between
/// them to 1-D; then folds the shape casts left. With `loopCarried`, the
/// vectors scf.for loops carry (and scf.if and scf.while results) are
/// linearized too (upstream's SCF structural type conversion): a two-level
/// accumulator of lane groups, vector<1x1x2x8xf32>, is one 16-lane register
/// across iterations, not two halves taken apart and put together in each.
/// With `bytesOnly`, only transfers and ops on vectors of 8-bit integers
/// are rewritten. Fails when a pattern application does not converge or
/// the linearization leaves an illegal op.
mlir::LogicalResult flattenContiguousVectors(mlir::Operation *root,
                                             bool loopCarried = false,
                                             bool bytesOnly = false);

} // namespace qforge

#endif // QFORGE_REWRITES_FLATTENCONTIGUOUSVECTORS_H
