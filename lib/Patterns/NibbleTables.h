//===- NibbleTables.h - nibbles to f32 by a 16-entry table ------*- C++ -*-===//
//
// The rewrite of patterns/X86NibbleTables.pdll (what it does and why is
// said there) and, for a target without AVX-512F, its undoing.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_PATTERNS_NIBBLETABLES_H
#define QFORGE_PATTERNS_NIBBLETABLES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace qforge {

/// The byte a 4-bit weight is read from, which nibble, and how it converts.
struct NibbleOfByte {
  /// The i8 vector holding the nibbles (for a high nibble, before the shift).
  mlir::Value bytes;
  /// Whether the weight is the byte's high nibble (else its low one).
  bool high;
  /// Whether the nibble is signed (sitofp: -8..7) or not (uitofp: 0..15).
  bool isSigned;
};

/// When `convert` is `arith.uitofp` or `arith.sitofp` of
/// `arith.trunci(%b : i8 -> i4)` into f32 on a static vector of a multiple
/// of 16 elements, returns the bytes `%b` -- or, when `%b` is a right shift
/// of `%bytes` by 4, `%bytes` and `high`.
std::optional<NibbleOfByte> matchNibbleToFloat(mlir::Operation *convert);

/// The f32 values of `nibble`'s weights, shaped as `resultType`: the bytes
/// zero-extended to 32-bit lanes (shifted right by 4 for the high nibble),
/// then `llvm.x86.avx512.permvar.sf.512` 16 lanes at a time on the table of
/// the nibble's values, [0, ..., 15] or [0, ..., 7, -8, ..., -1].
mlir::Value buildNibbleTableLookup(mlir::OpBuilder &builder, mlir::Location loc,
                                   NibbleOfByte nibble,
                                   mlir::VectorType resultType);

/// Whether `call` is a 512-bit vpermps call, the lookup
/// buildNibbleTableLookup makes.
bool isNibbleTableLookup(mlir::LLVM::CallIntrinsicOp call);

/// For a target without AVX-512F (an AVX-512 script compiled for AVX2, say):
/// the lookup `call` as what it computes -- `uitofp(index & 15)`, or for
/// the signed table the low 4 bits sign-extended and `sitofp` -- in generic
/// vector ops the target legalizes. Fails, leaving `call` alone, unless it
/// is a vector<16xf32> lookup by vector<16xi32> in one of those two
/// constant tables.
mlir::LogicalResult expandNibbleTableLookup(mlir::RewriterBase &rewriter,
                                            mlir::LLVM::CallIntrinsicOp call);

} // namespace qforge

#endif // QFORGE_PATTERNS_NIBBLETABLES_H
