//===- SplitParameterPacking.cpp - <f> and <f>_pack_weights ---------------===//

#include "Rewrites/SplitParameterPacking.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

std::string qforge::getPackWeightsName(llvm::StringRef kernel) {
  return (kernel + "_pack_weights").str();
}

bool qforge::isPackWeightsFunction(func::FuncOp function) {
  return function.getSymName().ends_with("_pack_weights");
}

/// The kernel argument a pack reads, directly or through reshapes (a
/// producer's N x G scales expanded to N x G x 1, torch-mlir's N x K weights
/// expanded to N x G x K); `reshapes` gets them, the argument's first.
static BlockArgument
argumentBehindReshapes(linalg::PackOp pack,
                       SmallVector<Operation *> &reshapes) {
  Value value = pack.getSource();
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
      return nullptr;
    reshapes.push_back(op);
    value = op->getOperand(0);
  }
  std::reverse(reshapes.begin(), reshapes.end());
  return dyn_cast<BlockArgument>(value);
}

BlockArgument qforge::getPackedArgument(linalg::PackOp pack) {
  SmallVector<Operation *> reshapes;
  return argumentBehindReshapes(pack, reshapes);
}

LogicalResult qforge::canSplitParameterPacking(func::FuncOp kernel,
                                               ArrayRef<linalg::PackOp> packs,
                                               std::string &reason) {
  llvm::raw_string_ostream os(reason);
  if (!kernel.isPublic() || kernel.isExternal()) {
    os << "'" << kernel.getSymName()
       << "' is not a public function with a body";
    return failure();
  }
  if (kernel->hasAttr(kPackWeightsAttr)) {
    os << "'" << kernel.getSymName()
       << "' already has its parameter packing split";
    return failure();
  }
  auto module = kernel->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(qforge::getPackWeightsName(kernel.getSymName()))) {
    os << "the module already defines '"
       << qforge::getPackWeightsName(kernel.getSymName()) << "'";
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
    SmallVector<Operation *> reshapes;
    BlockArgument argument = argumentBehindReshapes(pack, reshapes);
    if (!argument || argument.getOwner() != &kernel.getBody().front()) {
      os << "a pack does not read an argument of '" << kernel.getSymName()
         << "' (directly or through tensor reshapes)";
      return failure();
    }
    bool reshapesHaveOneUse = llvm::all_of(
        reshapes, [](Operation *reshape) { return reshape->hasOneUse(); });
    if (!argument.hasOneUse() || !reshapesHaveOneUse ||
        !seen.insert(argument).second) {
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
    return getPackedArgument(a).getArgNumber() <
           getPackedArgument(b).getArgNumber();
  });
  SmallVector<int64_t> positions;
  SmallVector<Type> rawTypes, packedTypes;
  for (linalg::PackOp pack : ordered) {
    BlockArgument argument = getPackedArgument(pack);
    positions.push_back(argument.getArgNumber());
    rawTypes.push_back(argument.getType());
    packedTypes.push_back(pack.getDestType());
  }

  // <f>_pack_weights(raw...) -> (packed...): each pack with a fresh
  // destination and its padding constant.
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointAfter(kernel);
  auto packWeights = func::FuncOp::create(
      rewriter, loc, qforge::getPackWeightsName(kernel.getSymName()),
      rewriter.getFunctionType(rawTypes, packedTypes));
  packWeights->setAttr(kPrepackedArgumentsAttr,
                       rewriter.getDenseI64ArrayAttr(positions));
  Block *body = packWeights.addEntryBlock();
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> packed;
  for (auto [index, pack] : llvm::enumerate(ordered)) {
    IRMapping mapping;
    SmallVector<Operation *> reshapes;
    mapping.map(argumentBehindReshapes(pack, reshapes),
                body->getArgument(index));
    for (Operation *reshape : reshapes)
      rewriter.clone(*reshape, mapping);
    if (Value padding = pack.getPaddingValue())
      mapping.map(padding,
                  rewriter.clone(*padding.getDefiningOp())->getResult(0));
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
  for (auto [index, pack] : llvm::enumerate(ordered)) {
    int64_t position = positions[index];
    Type packedType = pack.getDestType();
    BlockArgument argument = entry.getArgument(position);
    SmallVector<Operation *> reshapes;
    argumentBehindReshapes(pack, reshapes);
    rewriter.modifyOpInPlace(kernel, [&] {
      argument.setType(packedType);
      inputs[position] = packedType;
    });
    rewriter.replaceOp(pack, argument);
    // The reshapes read the raw argument; they went with the pack.
    for (Operation *reshape : llvm::reverse(reshapes))
      rewriter.eraseOp(reshape);
  }
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setFunctionType(
        rewriter.getFunctionType(inputs, kernel.getResultTypes()));
    kernel->setAttr(kPackWeightsAttr,
                    FlatSymbolRefAttr::get(packWeights.getSymNameAttr()));
  });
  return packWeights;
}
