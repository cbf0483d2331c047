//===- Patterns.h - qforge rewrite pattern sets -----------------*- C++ -*-===//
//
// One populate function per pattern set. The PDLL sets come from patterns/;
// each function's file says where the patterns are written.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_PATTERNS_PATTERNS_H
#define QFORGE_PATTERNS_PATTERNS_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace qforge {
/// patterns/FoldIntToFloatCasts.pdll: ext + int-to-float -> one cast.
void populateFoldIntToFloatCastsPatterns(mlir::RewritePatternSet &patterns);

/// patterns/FoldBroadcastTranspose.pdll: transpose of broadcast dims only ->
/// one broadcast.
void populateFoldBroadcastTransposePatterns(mlir::RewritePatternSet &patterns);
/// patterns/ReassociateFPReductions.pdll: `reassoc` on float
/// vector.reduction ops.
void populateReassociateFPReductionsPatterns(mlir::RewritePatternSet &patterns);
/// patterns/X86Int8DotProducts.pdll: u8 x s8 byte products summed 4 per
/// 32-bit lane -> AVX-512 VNNI vpdpbusd.
void populateX86Int8DotProductsPatterns(mlir::RewritePatternSet &patterns);
/// patterns/X86NibbleTables.pdll: a 4-bit weight of a byte pair converted to
/// f32 -> AVX-512 vpermps on a table of the 16 nibble values.
void populateX86NibbleTablesPatterns(mlir::RewritePatternSet &patterns);
/// ReadPastDisjointWrites.cpp: a vector.transfer_read of a tensor written by
/// vector.transfer_writes of other elements reads the writes' destination.
void populateReadPastDisjointWritesPatterns(mlir::RewritePatternSet &patterns);
/// WholeInsertSlice.cpp: a rank-reducing tensor.insert_slice that covers its
/// whole destination -> tensor.expand_shape of its source.
void populateFoldWholeInsertSlicePatterns(mlir::RewritePatternSet &patterns);
/// TransposeAsShuffle.cpp: a vector.transpose of at most 4096 bits -> one
/// vector.shuffle of the flattened vector.
void populateTransposeAsShufflePatterns(mlir::RewritePatternSet &patterns);
/// ComputeElementwiseAtReads.cpp: a point read (tensor.extract, one element
/// by vector.transfer_read) of a small elementwise generic's result -> its body
/// computed at that point (a block format's scale decoded where the group
/// loop reads it, not in a prologue).
void populateComputeElementwiseAtReadsPatterns(
    mlir::RewritePatternSet &patterns);
/// ReadWrittenElement.cpp: a point read of a tensor at constant indices that
/// a vector.transfer_write wrote -> the element of the written vector (a
/// super-block's scales decoded as one vector, read back per sub-block);
/// with `maxElements` > 1, also a minor identity read of up to that many
/// elements -> their extracts and a vector.from_elements (a lane group's
/// scales).
void populateReadWrittenElementPatterns(mlir::RewritePatternSet &patterns,
                                        std::int64_t maxElements = 1);
} // namespace qforge

#endif // QFORGE_PATTERNS_PATTERNS_H
