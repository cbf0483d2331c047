//===- Params.h - reading numbers that scripts pass as params ---*- C++ -*-===//
//
// qforge's transform ops that take a number either as an attribute or as a
// `!transform.param<i64>` (so that a script library sequence can receive a
// target's numbers as arguments) read the param here.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_TRANSFORMOPS_PARAMS_H
#define QFORGE_TRANSFORMOPS_PARAMS_H

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"

namespace qforge {

/// The integer `param` holds when it holds exactly one, else null.
inline mlir::IntegerAttr
getSingleIntegerParam(mlir::transform::TransformState &state,
                      mlir::Value param) {
  llvm::ArrayRef<mlir::Attribute> values = state.getParams(param);
  return values.size() == 1 ? llvm::dyn_cast<mlir::IntegerAttr>(values.front())
                            : nullptr;
}

/// The single positive integer `param` holds, in `value`; otherwise a
/// definite failure of `op`: "expected the <what> param to hold one
/// positive integer".
inline mlir::DiagnosedSilenceableFailure
getPositiveParam(mlir::Operation *op, mlir::transform::TransformState &state,
                 mlir::Value param, llvm::StringRef what, int64_t &value) {
  mlir::IntegerAttr integer = getSingleIntegerParam(state, param);
  if (!integer || integer.getInt() < 1)
    return mlir::emitDefiniteFailure(op)
           << "expected the " << what << " param to hold one positive integer";
  value = integer.getInt();
  return mlir::DiagnosedSilenceableFailure::success();
}

/// The 0 or 1 `param` holds, in `value`; otherwise a definite failure of
/// `op`: "expected the <what> param to hold one integer, 0 or 1".
inline mlir::DiagnosedSilenceableFailure
getFlagParam(mlir::Operation *op, mlir::transform::TransformState &state,
             mlir::Value param, llvm::StringRef what, bool &value) {
  mlir::IntegerAttr integer = getSingleIntegerParam(state, param);
  if (!integer || (integer.getInt() != 0 && integer.getInt() != 1))
    return mlir::emitDefiniteFailure(op)
           << "expected the " << what << " param to hold one integer, 0 or 1";
  value = integer.getInt() == 1;
  return mlir::DiagnosedSilenceableFailure::success();
}

} // namespace qforge

#endif // QFORGE_TRANSFORMOPS_PARAMS_H
