//===- ExpandByteDotProducts.h - vpdpbusd without VNNI ----------*- C++ -*-===//
//
// The int8 strategies end in `llvm.x86.avx512.vpdpbusd.{128,256,512}` calls
// (patterns/X86Int8DotProducts.pdll): per 32-bit lane, the accumulator plus
// four products of an unsigned and a signed byte. A target without the
// instruction of a call's width gets the same sums from instructions it
// has -- the target's instruction selection, done where the driver knows
// the target:
//   - 512 bits without AVX512-VNNI: two 256-bit calls (each legalized
//     again: a VEX vpdpbusd on AVX-VNNI, else the expansion below);
//   - 256 bits without VNNI on AVX2, 128 bits on SSSE3: with the unsigned
//     bytes split into their low 7 bits and their top bit,
//       pmaddwd(pmaddubsw(a & 0x7f, b), 1) + pmaddwd(pmaddubsw(a & 0x80, b), 1)
//     Exact: pmaddubsw adds two products in 16 bits with saturation, and
//     each half stays within [-32768, 32512] for any signed byte b (127 or
//     128 times two bytes), so it never saturates; pmaddwd adds the pairs
//     in 32 bits.
//   - one pmaddubsw + pmaddwd where a range analysis of the operands' ops
//     proves no pair leaves 16 bits: the 4-bit strategies' nibbles (`x &
//     15`, a shift right), and the int8 rows for AVX2 (magnitude_times_sign,
//     docs/numerics.md), whose unsigned bytes are |w| (at most 128) and
//     signed bytes an activation clamped to at least -127 with w's sign.
//     The analysis follows ands, shifts, abs, signed max/min (also as
//     arith-expand's select of a compare), negations, selects, constants,
//     shuffles and the elements of lowered n-D vectors (insertvalue /
//     extractvalue, position by position); the full range where it cannot
//     tell. The magnitude-times-sign pair itself becomes vpabsb(w) and
//     vpsignb(c, w), also on each half of a 512-bit call.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_EXPANDBYTEDOTPRODUCTS_H
#define QFORGE_REWRITES_EXPANDBYTEDOTPRODUCTS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace qforge {

/// The lanes (i32) of a vpdpbusd call, or 0 when `call` is not one.
int64_t getVpdpbusdLanes(mlir::LLVM::CallIntrinsicOp call);

/// Which instructions the target has for the expansion.
struct ByteDotProductTarget {
  bool hasVnni512 = false; ///< AVX512-VNNI: vpdpbusd of 512 bits
  bool hasVnni256 = false; ///< AVX512-VNNI + VL or AVX-VNNI: 128 and 256
  bool hasAvx2 = false;    ///< vpmaddubsw / vpmaddwd of 256 bits
  bool hasSsse3 = false;   ///< of 128 bits
};

/// Rewrites the vpdpbusd call `call` into calls `target` has (see the file
/// comment). Fails, leaving `call` alone, when `target` has neither
/// vpdpbusd of its width nor what the expansion needs; succeeds without a
/// change when it has the instruction.
mlir::LogicalResult legalizeVpdpbusd(mlir::RewriterBase &rewriter,
                                     mlir::LLVM::CallIntrinsicOp call,
                                     const ByteDotProductTarget &target);

} // namespace qforge

#endif // QFORGE_REWRITES_EXPANDBYTEDOTPRODUCTS_H
