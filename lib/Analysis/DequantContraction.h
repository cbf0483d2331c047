//===- DequantContraction.h - recognize dequant + contraction ---*- C++ -*-===//
//
// Structural recognition of the group-quantized matmul: a dequantization
// generic `(tofp(w) - zp) * scale` feeding a contraction with two or more
// reduction dims. Shared by the matcher op and the rewrites built on it.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_ANALYSIS_DEQUANTCONTRACTION_H
#define QFORGE_ANALYSIS_DEQUANTCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace qforge {

/// The parts of a recognized dequantization generic.
/// What a dequantization subtracts from its weights.
enum class DequantShift {
  None,      ///< tofp(w) * scale (symmetric)
  ZeroPoint, ///< (tofp(w) - zp) * scale
  Offset,    ///< tofp(w) * scale - offset
};

struct DequantParts {
  mlir::linalg::GenericOp op;
  mlir::OpOperand *weights = nullptr;    ///< the integer input
  mlir::OpOperand *scales = nullptr;     ///< float input, broadcasting map
  mlir::OpOperand *zeroPoints = nullptr; ///< may be null (symmetric)
  /// The offset form `tofp(w) * scale - offset` (llama.cpp's K-quants,
  /// s·q − o, whose o is no exact multiple of s): the offset, broadcast like
  /// the scale; never set together with zeroPoints. Only the packed
  /// factorings take it (FactorPackedDequantContraction.h).
  mlir::OpOperand *offsets = nullptr;
  bool weightsAreSigned = false; ///< sitofp / extsi chain
  /// i4 weights stored two per byte (Analysis/NibblePairs.h): the loop dim
  /// that picks the nibble. The bytes' map is the identity without it.
  std::optional<unsigned> nibbleDim;

  DequantShift getShift() const {
    return offsets      ? DequantShift::Offset
           : zeroPoints ? DequantShift::ZeroPoint
                        : DequantShift::None;
  }
  /// The zero-points or the offsets, whichever the form reads (or null).
  mlir::OpOperand *getShiftOperand() const {
    return zeroPoints ? zeroPoints : offsets;
  }
};

/// Follows an int-to-float cast and the integer extensions below it back to
/// the block argument `w` it converts (or to the byte holding `w`, a nibble:
/// `nibbleDim` is then set), when the chain computes float(w) with `w` read
/// as signed or unsigned (`isSigned`); null otherwise.
mlir::BlockArgument traceIntToFloat(mlir::Value value, bool &isSigned,
                                    std::optional<unsigned> &nibbleDim);

/// Returns the parts when `op` is an all-parallel generic computing
/// `(tofp(w) - zp) * scale` or `tofp(w) * scale - offset`, else
/// std::nullopt. `w` is an integer input read
/// through a permutation, or the nibble of a byte pair.
std::optional<DequantParts> matchDequant(mlir::linalg::GenericOp op);

/// True when `op` reads `value` as an input and is a multiply-accumulate
/// contraction (body exactly `out + in0 * in1`) with at least two reduction
/// iterators. With `allowWidening`, each input may be read through an
/// arith.extf (a mixed-precision spelling: f16 operands summed in f32),
/// which only the normalization (Analysis/ProducerForms) accepts: the
/// rewrites built on the plain match would drop it.
bool isMultiReductionContractionOf(mlir::linalg::LinalgOp op, mlir::Value value,
                                   bool allowWidening = false);

} // namespace qforge

#endif // QFORGE_ANALYSIS_DEQUANTCONTRACTION_H
