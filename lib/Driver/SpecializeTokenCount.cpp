//===- SpecializeTokenCount.cpp - static copies of a dynamic token count
//---===//
//
// A quantized matmul whose token count M is known only at run time compiles
// as static specializations (M = 1 and batched chunks) that a dispatcher
// calls on row chunks (Driver/TokenDispatch.h). The driver specializes each
// outlined matmul to its table row's chunk plan; the pass
// qforge-specialize-token-count{sizes=...} makes the copies of every
// function holding a quantized matmul with a dynamic token count (outline
// it first) for the sizes given
// (test/Driver/specialize-token-count.mlir).
//
//===----------------------------------------------------------------------===//

#include "Driver/SelectStrategy.h"
#include "Driver/Surgery.h"
#include "Driver/TokenDispatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace {
struct SpecializeTokenCountPass
    : public PassWrapper<SpecializeTokenCountPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SpecializeTokenCountPass)

  SpecializeTokenCountPass() = default;
  SpecializeTokenCountPass(const SpecializeTokenCountPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final {
    return "qforge-specialize-token-count";
  }
  StringRef getDescription() const final {
    return "For each function with a dynamic token count, private static "
           "copies @<f>_m<size> for the sizes given";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, tensor::TensorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The functions holding a quantized matmul whose token count is
    // dynamic (outlined: the driver specializes each matmul alone).
    llvm::SetVector<func::FuncOp> functions;
    for (const qforge::MatmulSite &site : qforge::findQuantizedMatmuls(module))
      if (ShapedType::isDynamic(site.tokens))
        if (auto parent = site.contraction->getParentOfType<func::FuncOp>())
          functions.insert(parent);
    for (func::FuncOp function : functions) {
      if (failed(qforge::findTokenDims(function)))
        return signalPassFailure();
      // An index argument is the token count where a caller passes a
      // tensor.dim of a dynamic dim there (as the driver's outlining does).
      SmallVector<bool> tokenCountArguments(function.getNumArguments(), false);
      if (std::optional<SymbolTable::UseRange> uses =
              SymbolTable::getSymbolUses(function, module))
        for (const SymbolTable::SymbolUse &use : *uses) {
          auto call = dyn_cast<func::CallOp>(use.getUser());
          if (!call)
            continue;
          for (auto [index, operand] : llvm::enumerate(call.getOperands())) {
            auto dim = operand.getDefiningOp<tensor::DimOp>();
            std::optional<int64_t> dimIndex =
                dim ? dim.getConstantIndex() : std::optional<int64_t>();
            auto source =
                dim ? dyn_cast<RankedTensorType>(dim.getSource().getType())
                    : nullptr;
            if (source && dimIndex && source.isDynamicDim(*dimIndex))
              tokenCountArguments[index] = true;
          }
        }
      for (int64_t size : sizes) {
        if (size < 1) {
          function.emitError() << "a token count of " << size
                               << " (qforge-specialize-token-count sizes)";
          return signalPassFailure();
        }
        if (failed(qforge::specializeTokenCount(
                function, size,
                (function.getSymName() + "_m" + Twine(size)).str(),
                tokenCountArguments)))
          return signalPassFailure();
      }
    }
  }

  ListOption<int64_t> sizes{
      *this, "sizes", llvm::cl::desc("the token counts to specialize to")};
};
} // namespace

std::unique_ptr<Pass> qforge::createSpecializeTokenCountPass() {
  return std::make_unique<SpecializeTokenCountPass>();
}
