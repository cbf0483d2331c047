//===- NibbleTables.h - nibbles to f32 by a 16-entry table ------*- C++ -*-===//
#ifndef QFORGE_PATTERNS_NIBBLETABLES_H
#define QFORGE_PATTERNS_NIBBLETABLES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace qforge {

/// The byte a 4-bit weight is read from, and whether it is the byte's high
/// nibble.
struct NibbleOfByte {
  /// The i8 vector holding the nibbles (for a high nibble, before the shift).
  mlir::Value bytes;
  /// Whether the weight is `bytes >> 4` (else `bytes & 15`).
  bool high;
};

/// When `convert` is `arith.uitofp(arith.trunci(%b : i8 -> i4))` into f32 on
/// a static vector of a multiple of 16 elements, returns the bytes `%b` --
/// or, when `%b` is `arith.shrui(%bytes, 4)`, `%bytes` and `high`.
std::optional<NibbleOfByte> matchNibbleToFloat(mlir::arith::UIToFPOp convert);

/// The f32 values of `nibble`'s weights, shaped as `resultType`, by table
/// lookup: the bytes zero-extended to 32-bit lanes (shifted right by 4 for
/// the high nibble), then `llvm.x86.avx512.permvar.sf.512` on the table
/// [0.0, 1.0, ..., 15.0] 16 lanes at a time (vpermps reads the low 4 bits
/// of each index lane). Exact: the table holds each nibble's value.
mlir::Value buildNibbleTableLookup(mlir::OpBuilder &builder, mlir::Location loc,
                                   NibbleOfByte nibble,
                                   mlir::VectorType resultType);

/// Whether `call` is a lookup buildNibbleTableLookup makes (a vpermps call).
bool isNibbleTableLookup(mlir::LLVM::CallIntrinsicOp call);

/// For a target without AVX-512F (a script with the lookups compiled for
/// AVX2, say): the lookup `call` as what it computes, `uitofp(index & 15)`,
/// in generic vector ops the target legalizes. Fails, leaving `call` alone,
/// unless its table is the constant [0.0, ..., 15.0].
mlir::LogicalResult expandNibbleTableLookup(mlir::RewriterBase &rewriter,
                                            mlir::LLVM::CallIntrinsicOp call);

} // namespace qforge

#endif // QFORGE_PATTERNS_NIBBLETABLES_H
