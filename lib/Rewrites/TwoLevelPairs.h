//===- TwoLevelPairs.h - what the two-level-as-seed rewrites share -*- C++
//-*-===//
//
// The rewrites that rebuild a two-level pair in a seed form
// (TwoLevelAsSeedInt4.h, TwoLevelAsSeedBytes.h) analyze every contraction
// of a module first, rewrite the pairs they take, and then erase what the
// old pairs alone read.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_REWRITES_TWOLEVELPAIRS_H
#define QFORGE_REWRITES_TWOLEVELPAIRS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <string>

namespace qforge {

/// Erases the old two-level dequantization once nothing reads it, and then
/// the generics it read (its scale and offset, one generic when both are
/// the same) that nothing else reads.
inline void eraseUnusedDequant(mlir::RewriterBase &rewriter,
                               mlir::linalg::GenericOp dequant) {
  if (!dequant || !dequant->use_empty())
    return;
  llvm::SetVector<mlir::Operation *> parameters;
  for (mlir::Value input : dequant.getDpsInputs())
    if (auto producer = input.getDefiningOp<mlir::linalg::GenericOp>())
      parameters.insert(producer);
  rewriter.eraseOp(dequant);
  for (mlir::Operation *parameter : parameters)
    if (mlir::isOpTriviallyDead(parameter))
      rewriter.eraseOp(parameter);
}

/// Every contraction of `module` with two or more reduction loops that
/// `analyze(op, reason)` takes, rewritten by `rewrite(rewriter, plan)`
/// (which returns the new contraction), all analyzed before any is
/// rewritten; then what nothing reads any more in the functions rewritten
/// (the old init's fill, the activation's reshape, empty tensors: a dead
/// linalg op would count as work around the matmul), the functions' own
/// ops, users before producers (an erased op takes its regions with it:
/// nothing nested is listed). Returns how many pairs were rewritten.
template <typename Plan, typename Analyze, typename Rewrite>
unsigned rewriteEveryTwoLevelPair(mlir::ModuleOp module, Analyze analyze,
                                  Rewrite rewrite) {
  llvm::SmallVector<Plan> plans;
  module.walk([&](mlir::linalg::GenericOp op) {
    std::string reason;
    if (op.getNumReductionLoops() < 2)
      return;
    if (mlir::FailureOr<Plan> plan = analyze(op, reason); mlir::succeeded(plan))
      plans.push_back(*plan);
  });
  mlir::IRRewriter rewriter(module.getContext());
  llvm::SetVector<mlir::func::FuncOp> functions;
  for (const Plan &plan : plans)
    functions.insert(rewrite(rewriter, plan)
                         ->template getParentOfType<mlir::func::FuncOp>());
  for (mlir::func::FuncOp function : functions)
    for (mlir::Block &block : function.getBody()) {
      llvm::SmallVector<mlir::Operation *> ops;
      for (mlir::Operation &op : block.without_terminator())
        ops.push_back(&op);
      for (mlir::Operation *op : llvm::reverse(ops))
        if (mlir::isOpTriviallyDead(op))
          rewriter.eraseOp(op);
    }
  return plans.size();
}

} // namespace qforge

#endif // QFORGE_REWRITES_TWOLEVELPAIRS_H
