//===- BuildTokenDispatch.cpp - a dynamic token count's dispatcher
//---------===//
//
// After a quantized matmul with a dynamic token count was specialized
// (qforge-specialize-token-count) and each specialization given its
// strategy, the dynamic function becomes the dispatcher that runs row
// chunks through them (Driver/TokenDispatch.h). The driver takes the chunk
// plan from the table row; the pass qforge-build-token-dispatch takes it as
// options (test/Driver/build-token-dispatch.mlir).
//
//===----------------------------------------------------------------------===//

#include "Driver/SelectStrategy.h"
#include "Driver/Surgery.h"
#include "Driver/TokenDispatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct BuildTokenDispatchPass
    : public PassWrapper<BuildTokenDispatchPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BuildTokenDispatchPass)

  BuildTokenDispatchPass() = default;
  BuildTokenDispatchPass(const BuildTokenDispatchPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "qforge-build-token-dispatch"; }
  StringRef getDescription() const final {
    return "Replaces the body of each function holding a quantized matmul "
           "with a dynamic token count by the dispatch of row chunks to its "
           "specializations @<f>_m<size>";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry
        .insert<arith::ArithDialect, scf::SCFDialect, tensor::TensorDialect>();
  }

  /// The specialization `<function>_m<tokens>`, or a diagnostic.
  FailureOr<qforge::TokenPath> findPath(func::FuncOp function, int64_t tokens) {
    std::string name = (function.getSymName() + "_m" + Twine(tokens)).str();
    auto path = getOperation().lookupSymbol<func::FuncOp>(name);
    if (!path)
      return function.emitError()
             << "no specialization @" << name
             << " to dispatch to (qforge-specialize-token-count first)";
    return qforge::TokenPath{tokens, path};
  }

  void runOnOperation() override {
    for (func::FuncOp function :
         qforge::findDynamicTokenFunctions(getOperation())) {
      FailureOr<qforge::TokenDims> dims = qforge::findTokenDims(function);
      FailureOr<qforge::TokenPath> single = findPath(function, 1);
      if (failed(dims) || failed(single))
        return signalPassFailure();
      SmallVector<qforge::TokenPath> chunkPaths, remainderPaths;
      for (auto [sizes, paths] : {std::make_pair(&chunks, &chunkPaths),
                                  std::make_pair(&remainders, &remainderPaths)})
        for (int64_t size : *sizes) {
          FailureOr<qforge::TokenPath> path = findPath(function, size);
          if (failed(path))
            return signalPassFailure();
          paths->push_back(*path);
        }
      SmallVector<Type> argumentTypes(function.getArgumentTypes());
      qforge::buildTokenDispatch(function, *dims, chunkPaths, remainderPaths,
                                 *single, rowsByDecode, padNearlyFullChunks,
                                 argumentTypes, intoDestinations);
      if (!intoDestinations)
        continue;
      SmallVector<func::CallOp> calls;
      getOperation().walk([&](func::CallOp call) {
        if (call.getCallee() == function.getSymName())
          calls.push_back(call);
      });
      for (func::CallOp call : calls)
        qforge::passDestinations(call, *dims);
    }
  }

  ListOption<int64_t> chunks{
      *this, "chunks", llvm::cl::desc("the whole chunks' sizes (any order)")};
  ListOption<int64_t> remainders{
      *this, "remainders",
      llvm::cl::desc("the smaller chunks, only for the rows left")};
  Option<int64_t> rowsByDecode{
      *this, "rows-by-decode",
      llvm::cl::desc("at most this many rows left go one at a time through "
                     "@<f>_m1"),
      llvm::cl::init(1)};
  Option<bool> intoDestinations{
      *this, "into-destinations",
      llvm::cl::desc("the dispatcher writes each result with the token dim "
                     "into a destination argument that its callers pass "
                     "(what the driver builds)"),
      llvm::cl::init(false)};
  Option<bool> padNearlyFullChunks{
      *this, "pad-nearly-full-chunks",
      llvm::cl::desc("rows left that nearly fill a larger chunk go padded "
                     "into it"),
      llvm::cl::init(false)};
};
} // namespace

std::unique_ptr<Pass> qforge::createBuildTokenDispatchPass() {
  return std::make_unique<BuildTokenDispatchPass>();
}
