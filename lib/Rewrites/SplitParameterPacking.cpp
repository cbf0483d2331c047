//===- SplitParameterPacking.cpp - <f> and <f>_pack_weights ---------------===//

#include "Rewrites/SplitParameterPacking.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

static std::string packWeightsName(func::FuncOp kernel) {
  return (kernel.getSymName() + "_pack_weights").str();
}

LogicalResult qforge::canSplitParameterPacking(func::FuncOp kernel,
                                               ArrayRef<linalg::PackOp> packs,
                                               std::string &reason) {
  llvm::raw_string_ostream os(reason);
  if (!kernel.isPublic() || kernel.isExternal()) {
    os << "'" << kernel.getSymName() << "' is not a public function with a body";
    return failure();
  }
  if (kernel->hasAttr(kPackWeightsAttr)) {
    os << "'" << kernel.getSymName() << "' already has its parameter packing split";
    return failure();
  }
  auto module = kernel->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(packWeightsName(kernel))) {
    os << "the module already defines '" << packWeightsName(kernel) << "'";
    return failure();
  }
  std::optional<SymbolTable::UseRange> uses = kernel.getSymbolUses(module);
  if (!uses || !uses->empty()) {
    os << "'" << kernel.getSymName()
       << "' is referenced in its module; its signature cannot change";
    return failure();
  }
  llvm::SmallDenseSet<Value> seen;
  for (linalg::PackOp pack : packs) {
    auto argument = dyn_cast<BlockArgument>(pack.getSource());
    if (!argument || argument.getOwner() != &kernel.getBody().front()) {
      os << "a pack does not read an argument of '" << kernel.getSymName() << "'";
      return failure();
    }
    if (!argument.hasOneUse() || !seen.insert(argument).second) {
      os << "argument #" << argument.getArgNumber()
         << " has users other than its pack; the raw tensor is still needed";
      return failure();
    }
    if (Value padding = pack.getPaddingValue();
        padding && !matchPattern(padding, m_Constant())) {
      os << "the pack of argument #" << argument.getArgNumber()
         << " pads with a value that is not a constant";
      return failure();
    }
    if (!pack.getDestType().hasStaticShape()) {
      os << "the pack of argument #" << argument.getArgNumber()
         << " has a dynamic shape";
      return failure();
    }
  }
  return success();
}

func::FuncOp qforge::splitParameterPacking(RewriterBase &rewriter,
                                           func::FuncOp kernel,
                                           ArrayRef<linalg::PackOp> packs) {
  // The packed arguments in argument order: the ABI of <f>_pack_weights.
  SmallVector<linalg::PackOp> ordered(packs);
  llvm::sort(ordered, [](linalg::PackOp a, linalg::PackOp b) {
    return cast<BlockArgument>(a.getSource()).getArgNumber() <
           cast<BlockArgument>(b.getSource()).getArgNumber();
  });
  SmallVector<int64_t> positions;
  SmallVector<Type> rawTypes, packedTypes;
  for (linalg::PackOp pack : ordered) {
    auto argument = cast<BlockArgument>(pack.getSource());
    positions.push_back(argument.getArgNumber());
    rawTypes.push_back(argument.getType());
    packedTypes.push_back(pack.getDestType());
  }

  // <f>_pack_weights(raw...) -> (packed...): each pack with a fresh
  // destination and its padding constant.
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointAfter(kernel);
  auto packWeights = func::FuncOp::create(
      rewriter, loc, packWeightsName(kernel),
      rewriter.getFunctionType(rawTypes, packedTypes));
  packWeights->setAttr(kPrepackedArgumentsAttr,
                       rewriter.getDenseI64ArrayAttr(positions));
  Block *body = packWeights.addEntryBlock();
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> packed;
  for (auto [index, pack] : llvm::enumerate(ordered)) {
    IRMapping mapping;
    mapping.map(pack.getSource(), body->getArgument(index));
    if (Value padding = pack.getPaddingValue())
      mapping.map(padding, rewriter.clone(*padding.getDefiningOp())->getResult(0));
    auto dest = tensor::EmptyOp::create(rewriter, pack.getLoc(),
                                        pack.getDestType().getShape(),
                                        pack.getDestType().getElementType());
    mapping.map(pack.getDest(), dest.getResult());
    for (Value tile : pack.getInnerTiles())
      if (Operation *producer = tile.getDefiningOp();
          producer && !mapping.contains(tile))
        mapping.map(tile, rewriter.clone(*producer)->getResult(0));
    packed.push_back(rewriter.clone(*pack, mapping)->getResult(0));
  }
  func::ReturnOp::create(rewriter, loc, packed);

  // <f> takes the packed tensors where it took the raw ones.
  Block &entry = kernel.getBody().front();
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  for (auto [position, pack] : llvm::zip(positions, ordered)) {
    BlockArgument argument = entry.getArgument(position);
    rewriter.modifyOpInPlace(kernel, [&] {
      argument.setType(pack.getDestType());
      inputs[position] = pack.getDestType();
    });
    rewriter.replaceOp(pack, argument);
  }
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setFunctionType(
        rewriter.getFunctionType(inputs, kernel.getResultTypes()));
    kernel->setAttr(kPackWeightsAttr,
                    FlatSymbolRefAttr::get(packWeights.getSymNameAttr()));
  });
  return packWeights;
}
