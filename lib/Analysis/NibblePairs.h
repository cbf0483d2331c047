//===- NibblePairs.h - i4 elements stored two per byte ----------*- C++ -*-===//
//
// qforge-store-int4-as-byte-pairs stores an i4 tensor S x K as bytes
// S x K/2 (element 2i in the low nibble of byte i, 2i+1 in the high one) and
// splits the loop over K into (K/2, 2). A generic reading the bytes takes
// its element with the body below; the matcher and the rewrites that rebuild
// dequantization bodies recognize and rebuild the same form.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_ANALYSIS_NIBBLEPAIRS_H
#define QFORGE_ANALYSIS_NIBBLEPAIRS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace qforge {

/// The i4 element of `byte` that loop dim `dim` (0: low nibble, 1: high
/// nibble) picks: trunci(byte >> (4 * index(dim))).
inline mlir::Value buildNibbleOfBytePair(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value byte, unsigned dim) {
  using namespace mlir;
  Type i8 = b.getI8Type();
  Value which = linalg::IndexOp::create(b, loc, dim);
  Value whichByte = arith::IndexCastOp::create(b, loc, i8, which);
  Value four = arith::ConstantIntOp::create(b, loc, i8, 4);
  Value shift = arith::MulIOp::create(b, loc, whichByte, four);
  Value shifted = arith::ShRUIOp::create(b, loc, byte, shift);
  return arith::TruncIOp::create(b, loc, b.getIntegerType(4), shifted);
}

/// A nibble taken from a byte as buildNibbleOfBytePair does.
struct NibbleOfBytePair {
  mlir::Value byte;
  unsigned dim;
};

/// Recognizes buildNibbleOfBytePair's result (the multiplication by 4 in
/// either operand order).
inline std::optional<NibbleOfBytePair>
matchNibbleOfBytePair(mlir::Value value) {
  using namespace mlir;
  auto trunc = value.getDefiningOp<arith::TruncIOp>();
  if (!trunc || !trunc.getType().isInteger(4) ||
      !trunc.getIn().getType().isInteger(8))
    return std::nullopt;
  auto shifted = trunc.getIn().getDefiningOp<arith::ShRUIOp>();
  if (!shifted)
    return std::nullopt;
  auto shift = shifted.getRhs().getDefiningOp<arith::MulIOp>();
  if (!shift)
    return std::nullopt;
  for (auto [which, four] : {std::pair(shift.getLhs(), shift.getRhs()),
                             std::pair(shift.getRhs(), shift.getLhs())}) {
    auto constant = four.getDefiningOp<arith::ConstantIntOp>();
    auto cast = which.getDefiningOp<arith::IndexCastOp>();
    if (!constant || constant.value() != 4 || !cast)
      continue;
    if (auto index = cast.getIn().getDefiningOp<linalg::IndexOp>())
      return NibbleOfBytePair{shifted.getLhs(), unsigned(index.getDim())};
  }
  return std::nullopt;
}

} // namespace qforge

#endif // QFORGE_ANALYSIS_NIBBLEPAIRS_H
