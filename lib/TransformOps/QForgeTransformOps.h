//===- QForgeTransformOps.h - qforge transform ops --------------*- C++ -*-===//
#ifndef QFORGE_TRANSFORMOPS_QFORGETRANSFORMOPS_H
#define QFORGE_TRANSFORMOPS_QFORGETRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "TransformOps/QForgeTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace qforge {
/// Registers the `transform.qforge.*` extension of the transform dialect.
void registerTransformExtension(mlir::DialectRegistry &registry);
} // namespace qforge

#endif // QFORGE_TRANSFORMOPS_QFORGETRANSFORMOPS_H
