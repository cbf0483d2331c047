//===- QForgeTransformExtension.cpp - register transform.qforge.* ---------===//
//
// The extension that injects qforge's ops into the transform dialect, and the
// op definitions generated from QForgeTransformOps.td.
//
//===----------------------------------------------------------------------===//

#include "TransformOps/QForgeTransformOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

#define GET_OP_CLASSES
#include "TransformOps/QForgeTransformOps.cpp.inc"

using namespace mlir;

namespace {
class QForgeTransformExtension
    : public transform::TransformDialectExtension<QForgeTransformExtension> {
public:
  // Anonymous-namespace extensions need an explicit TypeID: the registry
  // deduplicates extensions by it (e.g. when the plugin is loaded twice).
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QForgeTransformExtension)

  using Base::Base;

  void init() {
    // PDLL pattern sets are PDL modules compiled to bytecode at apply time.
    declareDependentDialect<pdl::PDLDialect>();
    declareDependentDialect<pdl_interp::PDLInterpDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<func::FuncDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    declareGeneratedDialect<LLVM::LLVMDialect>();
    declareGeneratedDialect<math::MathDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "TransformOps/QForgeTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void qforge::registerTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<QForgeTransformExtension>();
}
