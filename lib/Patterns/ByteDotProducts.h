//===- ByteDotProducts.h - recognize 4-byte lane sums -----------*- C++ -*-===//
#ifndef QFORGE_PATTERNS_BYTEDOTPRODUCTS_H
#define QFORGE_PATTERNS_BYTEDOTPRODUCTS_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <optional>
#include <utility>

namespace qforge {

/// When `reduction` adds groups of 4 adjacent products
/// `extui(u8) * extsi(s8)` (operands in either order, possibly broadcast to
/// more leading unit dims or shape-cast with the 4 kept innermost) into 4,
/// 8 or 16 i32 lanes -- reducing the innermost dim of size 4 and otherwise
/// only unit dims, unmasked; the lanes may span several dims (a two-level
/// accumulator's lane groups), flattened row-major as the bytes are --
/// returns the (unsigned, signed) byte vectors. An operand may also be 4
/// extended bytes ([1.., 4]) broadcast along the lanes (e.g. 4 activation
/// bytes shared by 16 rows); its byte vector is then those 4, to be
/// broadcast. Bytes shared by only some lanes are not taken.
std::optional<std::pair<mlir::Value, mlir::Value>>
matchFourByteLaneSum(mlir::vector::MultiDimReductionOp reduction);

/// The operands of a sum of 4-byte products `extsi(w) * extsi(maxsi(x, c))`
/// (matchFourClampedByteLaneSum).
struct ClampedByteProducts {
  mlir::Value weights; ///< the signed bytes w
  mlir::Value clamped; ///< the bytes x the clamp reads
  int64_t limit;       ///< c's every byte, at least -127
};

/// When `reduction` adds groups of 4 adjacent products of two signed bytes
/// in the shapes matchFourByteLaneSum accepts, one of them clamped to at
/// least -127 by an arith.maxsi with a constant (the int8 strategies'
/// activations, `magnitude_times_sign`), returns the parts: each product
/// is then |w| times x with w's sign, an unsigned byte of at most 128 times
/// a signed one within +-127 -- vpdpbusd's operand kinds, and a single
/// pmaddubsw's without VNNI (ExpandByteDotProducts.h).
std::optional<ClampedByteProducts>
matchFourClampedByteLaneSum(mlir::vector::MultiDimReductionOp reduction);

/// When `reduction` adds groups of 4 adjacent signed bytes, widened --
/// `extsi(s8)` into i32 lanes or `sitofp(s8)` into f32 lanes, with the
/// shapes matchFourByteLaneSum accepts -- returns the byte vector: such a
/// sum is vpdpbusd's with unsigned bytes of 1.
std::optional<mlir::Value>
matchFourSignedByteLaneSum(mlir::vector::MultiDimReductionOp reduction);

/// A byte operand of a matched lane sum as vector<4Lxi8> for `lanes` L:
/// shape-cast as it is, or, when its 4 bytes are shared by every lane
/// ([1.., 4] of any rank), broadcast to [L, 4] first. With `asWords`, the
/// shared bytes are broadcast as one i32 (bitcast, a 1-D broadcast to L
/// lanes, bitcast back): one vpbroadcastd. The [L, 4] broadcast lowers to
/// L inserts of 4 bytes and a shape cast that takes them apart again: 32
/// shuffles per operand in LLVM IR, which LLVM folds into the same
/// vpbroadcastd after spending most of a prefill kernel's compile on them.
/// Only for operands whose value range no later analysis needs:
/// ExpandByteDotProducts.h does not follow a bitcast.
mlir::Value buildLaneBytes(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value bytes, int64_t lanes,
                           bool asWords = false);

/// llvm.x86.avx512.vpdpbusd.{128,256,512}(acc, unsignedBytes, signedBytes)
/// for `acc` a vector<Lxi32> (L = 4, 8 or 16) and the bytes vector<4Lxi8>:
/// each lane adds its 4 products zext(u) * sext(s), exactly.
mlir::Value buildVpdpbusd(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value acc, mlir::Value unsignedBytes,
                          mlir::Value signedBytes);

} // namespace qforge

#endif // QFORGE_PATTERNS_BYTEDOTPRODUCTS_H
