//===- PlainTransfer.h - a transfer that covers exactly its box -*- C++ -*-===//
//
// Shared by the transfer-forwarding patterns (ReadPastDisjointWrites.cpp,
// ReadWrittenElement.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_PATTERNS_PLAINTRANSFER_H
#define QFORGE_PATTERNS_PLAINTRANSFER_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace qforge {

/// Unmasked (by operand or by an enclosing vector.mask), of a fixed-size
/// vector, with a minor identity map: the transfer covers the box of its
/// vector shape at its indices, its minor dims the vector's.
inline bool isPlainBox(mlir::VectorTransferOpInterface transfer) {
  auto maskable = mlir::dyn_cast<mlir::vector::MaskableOpInterface>(
      transfer.getOperation());
  return !transfer.getMask() && !(maskable && maskable.isMasked()) &&
         !transfer.getVectorType().isScalable() &&
         transfer.getPermutationMap().isMinorIdentity();
}

} // namespace qforge

#endif // QFORGE_PATTERNS_PLAINTRANSFER_H
