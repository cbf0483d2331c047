//===- ConvertControlFlowToLLVM.cpp - cf to LLVM, functions in parallel ---===//
//
// Upstream's convert-cf-to-llvm runs on the module as one conversion,
// because lowering a cf.assert adds `abort` and a message to the module;
// most of its time then goes to visiting every op of every function on one
// thread (a dynamic-M layer: 21 kernels and their glue, 0.066 s of which
// little is branches). This pass lowers the branches (cf.br, cf.cond_br,
// cf.switch) of each llvm.func on its own, the functions in parallel, and
// then, only if the module holds any, the asserts as upstream does. The
// patterns and the type converter are upstream's: the IR is theirs.
// Pass: qforge-convert-cf-to-llvm, in place of convert-cf-to-llvm.
//
//===----------------------------------------------------------------------===//

#include "Driver/Surgery.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Threading.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {
/// Converts the `Ops` of `root` with `populate`'s patterns as
/// convert-cf-to-llvm does: every other op stays as it is, and the block
/// signatures the branches reach are converted.
template <typename... Ops>
LogicalResult
convert(Operation *root,
        function_ref<void(const LLVMTypeConverter &, RewritePatternSet &)>
            populate) {
  MLIRContext *context = root->getContext();
  LLVMConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addIllegalOp<Ops...>();
  LowerToLLVMOptions options(context);
  LLVMTypeConverter converter(context, options);
  RewritePatternSet patterns(context);
  populate(converter, patterns);
  return applyPartialConversion(root, target, std::move(patterns));
}

struct ConvertControlFlowToLLVMPass
    : public PassWrapper<ConvertControlFlowToLLVMPass,
                         OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConvertControlFlowToLLVMPass)
  StringRef getArgument() const final { return "qforge-convert-cf-to-llvm"; }
  StringRef getDescription() const final {
    return "convert-cf-to-llvm with the branches of each llvm.func lowered "
           "on its own, the functions in parallel";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect>();
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> functions;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (!function.isExternal())
        functions.push_back(function);
    if (failed(failableParallelForEach(
            &getContext(), functions, [](Operation *function) {
              return convert<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp>(
                  function, [](const LLVMTypeConverter &converter,
                               RewritePatternSet &patterns) {
                    cf::populateControlFlowToLLVMConversionPatterns(converter,
                                                                    patterns);
                  });
            })))
      return signalPassFailure();
    // What is left: branches outside llvm.funcs, and asserts (which add
    // `abort` to the module), lowered on the whole module as upstream does.
    bool left = module
                    .walk([](Operation *op) {
                      return isa<cf::ControlFlowDialect>(op->getDialect())
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    })
                    .wasInterrupted();
    if (left &&
        failed(
            convert<cf::BranchOp, cf::CondBranchOp, cf::SwitchOp, cf::AssertOp>(
                module, [](const LLVMTypeConverter &converter,
                           RewritePatternSet &patterns) {
                  cf::populateControlFlowToLLVMConversionPatterns(converter,
                                                                  patterns);
                  cf::populateAssertToLLVMConversionPattern(converter,
                                                            patterns);
                })))
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> qforge::createConvertControlFlowToLLVMPass() {
  return std::make_unique<ConvertControlFlowToLLVMPass>();
}
