//===- MergeIdenticalFunctions.cpp - one copy of identical functions
//-------===//
//
// A model exported layer by layer holds N private layer functions that
// differ only in their names (and are called with different weights).
// Compiled one by one, the work grows with N; merged, a model of N
// identical layers costs about one layer (issue: whole-model compile time).
// Two private functions with bodies are merged when their types, their
// attributes (the name aside) and their bodies are the same op by op
// (OperationEquivalence, locations aside); every use of the others then
// names the first, and the others are erased. The driver runs this on
// every input (Session::parseInput); the pass is
// qforge-merge-identical-functions
// (test/Driver/merge-identical-functions.mlir).
//
//===----------------------------------------------------------------------===//

#include "Driver/Surgery.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

bool qforge::areIdenticalFunctions(func::FuncOp a, func::FuncOp b) {
  if (a.getFunctionType() != b.getFunctionType())
    return false;
  NamedAttrList attributesA(a->getAttrDictionary()),
      attributesB(b->getAttrDictionary());
  attributesA.erase(SymbolTable::getSymbolAttrName());
  attributesB.erase(SymbolTable::getSymbolAttrName());
  if (attributesA.getDictionary(a.getContext()) !=
      attributesB.getDictionary(b.getContext()))
    return false;
  return OperationEquivalence::isRegionEquivalentTo(
      &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

LogicalResult qforge::mergeIdenticalFunctions(ModuleOp module) {
  SmallVector<func::FuncOp> kept;
  SmallVector<std::pair<func::FuncOp, func::FuncOp>> merged;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!function.isPrivate() || function.isExternal())
      continue;
    auto same = llvm::find_if(kept, [&](func::FuncOp other) {
      return areIdenticalFunctions(other, function);
    });
    if (same == kept.end())
      kept.push_back(function);
    else
      merged.emplace_back(function, *same);
  }
  for (auto [function, same] : merged) {
    if (failed(SymbolTable::replaceAllSymbolUses(
            function, same.getSymNameAttr(), module)))
      return function.emitError()
             << "cannot redirect the uses of @" << function.getSymName()
             << " to the identical @" << same.getSymName();
    function.erase();
  }
  return success();
}

namespace {
struct MergeIdenticalFunctionsPass
    : public PassWrapper<MergeIdenticalFunctionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MergeIdenticalFunctionsPass)
  StringRef getArgument() const final {
    return "qforge-merge-identical-functions";
  }
  StringRef getDescription() const final {
    return "Keeps one of private functions identical but for their names; "
           "their uses name the one kept";
  }
  void runOnOperation() override {
    if (failed(qforge::mergeIdenticalFunctions(getOperation())))
      signalPassFailure();
  }
};
} // namespace

std::unique_ptr<Pass> qforge::createMergeIdenticalFunctionsPass() {
  return std::make_unique<MergeIdenticalFunctionsPass>();
}
