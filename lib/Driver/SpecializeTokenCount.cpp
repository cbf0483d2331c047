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
    // Outlined first: the driver specializes each matmul alone.
    for (func::FuncOp function : qforge::findDynamicTokenFunctions(module)) {
      if (failed(qforge::findTokenDims(function)))
        return signalPassFailure();
      // An index argument is the token count where a caller passes a
      // tensor.dim of a dynamic dim there (as the driver's outlining does).
      SmallVector<bool> tokenCountArguments(function.getNumArguments(), false);
      if (std::optional<SymbolTable::UseRange> uses =
              SymbolTable::getSymbolUses(function, module))
        for (const SymbolTable::SymbolUse &use : *uses)
          if (auto call = dyn_cast<func::CallOp>(use.getUser()))
            for (auto [index, passesTokens] :
                 llvm::enumerate(qforge::findTokenCountArguments(call)))
              tokenCountArguments[index] =
                  tokenCountArguments[index] || passesTokens;
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
