//===- SplitParameterPacking.cpp - <f> and <f>_pack_weights ---------------===//

#include "Rewrites/SplitParameterPacking.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

std::string qforge::getPackWeightsName(llvm::StringRef kernel) {
  return (kernel + "_pack_weights").str();
}

bool qforge::isPackWeightsFunction(func::FuncOp function) {
  return function.getSymName().ends_with("_pack_weights");
}

qforge::PackedSignature
qforge::getPackedSignature(llvm::ArrayRef<int64_t> resultPositions,
                           unsigned numRawArguments) {
  PackedSignature signature;
  signature.rawArguments = numRawArguments;
  unsigned extra = numRawArguments;
  for (int64_t position : resultPositions) {
    if (llvm::is_contained(signature.inputs, position)) {
      signature.kernelIndices.push_back(extra++);
      continue;
    }
    signature.inputs.push_back(position);
    signature.kernelIndices.push_back(position);
  }
  llvm::sort(signature.inputs);
  return signature;
}

qforge::PackedSignature
qforge::getPackedSignatureOfKernel(llvm::ArrayRef<int64_t> resultPositions,
                                   unsigned numKernelArguments) {
  // Each result beyond the first of its raw argument is one more argument.
  llvm::SmallDenseSet<int64_t> distinct(resultPositions.begin(),
                                        resultPositions.end());
  return getPackedSignature(resultPositions,
                            numKernelArguments -
                                (resultPositions.size() - distinct.size()));
}

/// The values `op` reads: its operands, and for a generic the values its
/// body takes from outside (constants hoisted by canonicalization).
static llvm::SetVector<Value> getReadValues(Operation *op) {
  llvm::SetVector<Value> values(op->operand_begin(), op->operand_end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
  return values;
}

/// Whether `op` may move into `<f>_pack_weights` with the packing it feeds:
/// a view of a tensor, or a linalg.generic on tensors with no side effect
/// (a block format's f16 scale joined from two bytes); its body may read
/// constants from outside.
static bool isParameterComputation(Operation *op) {
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
          tensor::ExtractSliceOp, tensor::EmptyOp, arith::ConstantOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      !isMemoryEffectFree(generic))
    return false;
  llvm::SetVector<Value> fromAbove;
  getUsedValuesDefinedAbove(generic.getRegion(), fromAbove);
  return llvm::all_of(
      fromAbove, [](Value value) { return matchPattern(value, m_Constant()); });
}

/// The computation `value` is made by from `entry`'s arguments alone:
/// `ops` gets its ops (producers first, all in `entry`), `arguments` the
/// arguments it reads. False when it reads anything else.
static bool
collectParameterComputation(Value value, Block *entry,
                            llvm::SetVector<Operation *> &ops,
                            llvm::SetVector<BlockArgument> &arguments) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (argument.getOwner() != entry)
      return false;
    arguments.insert(argument);
    return true;
  }
  Operation *op = value.getDefiningOp();
  if (ops.contains(op))
    return true;
  if (op->getBlock() != entry || !isParameterComputation(op))
    return false;
  for (Value operand : getReadValues(op))
    if (!collectParameterComputation(operand, entry, ops, arguments))
      return false;
  ops.insert(op);
  return true;
}

/// The computation of `pack`'s source and padding from arguments of its
/// function, in order, and the one argument it reads; null when it reads
/// anything else or several arguments.
static BlockArgument getPackedArgument(linalg::PackOp pack,
                                       llvm::SetVector<Operation *> &ops) {
  auto kernel = pack->getParentOfType<func::FuncOp>();
  if (!kernel || pack->getBlock() != &kernel.getBody().front())
    return nullptr;
  Block *entry = pack->getBlock();
  llvm::SetVector<BlockArgument> arguments;
  if (!collectParameterComputation(pack.getSource(), entry, ops, arguments) ||
      arguments.size() != 1)
    return nullptr;
  for (Value tile : pack.getInnerTiles())
    if (!collectParameterComputation(tile, entry, ops, arguments) ||
        arguments.size() != 1)
      return nullptr;
  // Producers before their users, as in the block.
  llvm::SmallVector<Operation *> sorted(ops.begin(), ops.end());
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  ops.clear();
  ops.insert(sorted.begin(), sorted.end());
  return arguments.front();
}

BlockArgument qforge::getParameterArgument(Value value) {
  auto function = value.getParentRegion()->getParentOfType<func::FuncOp>();
  if (!function || function.isExternal() ||
      value.getParentBlock() != &function.getBody().front())
    return nullptr;
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<BlockArgument> arguments;
  if (!collectParameterComputation(value, &function.getBody().front(), ops,
                                   arguments) ||
      arguments.size() != 1)
    return nullptr;
  return arguments.front();
}

BlockArgument qforge::getPackedArgument(linalg::PackOp pack) {
  llvm::SetVector<Operation *> ops;
  return ::getPackedArgument(pack, ops);
}

/// Whether `op` is only a value the packing copies (a constant, an empty
/// tensor's shape) that others may share.
static bool isSharedLeaf(Operation *op) {
  return isa<arith::ConstantOp, tensor::EmptyOp>(op);
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
  // Everything that moves: the packs and the computations they read.
  llvm::SmallPtrSet<Operation *, 16> moving;
  llvm::SetVector<BlockArgument> arguments;
  for (linalg::PackOp pack : packs) {
    llvm::SetVector<Operation *> ops;
    BlockArgument argument = ::getPackedArgument(pack, ops);
    if (!argument) {
      os << "a pack does not read one argument of '" << kernel.getSymName()
         << "' (directly, through tensor views, or through computations on "
            "it alone)";
      return failure();
    }
    arguments.insert(argument);
    moving.insert(pack);
    moving.insert(ops.begin(), ops.end());
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
  // The raw tensors and what is computed from them must serve the packing
  // alone: otherwise the per-call function still needs them.
  auto servesPackingOnly = [&](Value value) {
    return llvm::all_of(value.getUsers(),
                        [&](Operation *user) { return moving.contains(user); });
  };
  for (BlockArgument argument : arguments)
    if (!servesPackingOnly(argument)) {
      os << "argument #" << argument.getArgNumber()
         << " has users other than its pack; the raw tensor is still needed";
      return failure();
    }
  for (Operation *op : moving)
    if (!isa<linalg::PackOp>(op) && !isSharedLeaf(op) &&
        !llvm::all_of(op->getResults(), servesPackingOnly)) {
      os << "a value computed from a packed argument has users other than "
            "its pack; the raw tensor is still needed";
      return failure();
    }
  return success();
}

func::FuncOp qforge::splitParameterPacking(RewriterBase &rewriter,
                                           func::FuncOp kernel,
                                           ArrayRef<linalg::PackOp> packs) {
  // The packs by the argument they read, in argument order. The first pack
  // of an argument takes its place in <f>; any further one (a block
  // format's quants and scales, both packed from its blocks) follows <f>'s
  // arguments (docs/abi.md).
  struct ArgumentPacking {
    BlockArgument argument;
    SmallVector<linalg::PackOp> packs;
  };
  SmallVector<ArgumentPacking> byArgument;
  for (linalg::PackOp pack : packs) {
    BlockArgument argument = getPackedArgument(pack);
    auto found = llvm::find_if(byArgument, [&](const ArgumentPacking &a) {
      return a.argument == argument;
    });
    if (found == byArgument.end())
      byArgument.push_back({argument, {pack}});
    else
      found->packs.push_back(pack);
  }
  llvm::sort(byArgument,
             [](const ArgumentPacking &a, const ArgumentPacking &b) {
               return a.argument.getArgNumber() < b.argument.getArgNumber();
             });
  SmallVector<linalg::PackOp> ordered;
  SmallVector<int64_t> positions;
  for (const ArgumentPacking &entry : byArgument) {
    ordered.push_back(entry.packs.front());
    positions.push_back(entry.argument.getArgNumber());
  }
  for (const ArgumentPacking &entry : byArgument)
    for (linalg::PackOp pack : llvm::drop_begin(entry.packs)) {
      ordered.push_back(pack);
      positions.push_back(entry.argument.getArgNumber());
    }
  SmallVector<Type> rawTypes, packedTypes;
  for (const ArgumentPacking &entry : byArgument)
    rawTypes.push_back(entry.argument.getType());
  for (linalg::PackOp pack : ordered)
    packedTypes.push_back(pack.getDestType());

  // <f>_pack_weights(raw...) -> (packed...): each pack with the
  // computation it reads, a fresh destination and its padding constant.
  Location loc = kernel.getLoc();
  rewriter.setInsertionPointAfter(kernel);
  auto packWeights = func::FuncOp::create(
      rewriter, loc, qforge::getPackWeightsName(kernel.getSymName()),
      rewriter.getFunctionType(rawTypes, packedTypes));
  packWeights->setAttr(kPrepackedArgumentsAttr,
                       rewriter.getDenseI64ArrayAttr(positions));
  Block *body = packWeights.addEntryBlock();
  rewriter.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [index, entry] : llvm::enumerate(byArgument))
    mapping.map(Value(entry.argument), body->getArgument(index));
  llvm::SetVector<Operation *> computations;
  SmallVector<Value> packed;
  for (linalg::PackOp pack : ordered) {
    llvm::SetVector<Operation *> ops;
    ::getPackedArgument(pack, ops);
    for (Operation *op : ops)
      if (computations.insert(op))
        rewriter.clone(*op, mapping);
    // Each pack with its own padding constant and destination.
    IRMapping packMapping = mapping;
    if (Value padding = pack.getPaddingValue())
      packMapping.map(padding,
                      rewriter.clone(*padding.getDefiningOp())->getResult(0));
    auto dest = tensor::EmptyOp::create(rewriter, pack.getLoc(),
                                        pack.getDestType().getShape(),
                                        pack.getDestType().getElementType());
    packMapping.map(pack.getDest(), dest.getResult());
    for (Value tile : pack.getInnerTiles())
      if (Operation *producer = tile.getDefiningOp();
          producer && !packMapping.contains(tile))
        packMapping.map(tile, rewriter.clone(*producer)->getResult(0));
    packed.push_back(rewriter.clone(*pack, packMapping)->getResult(0));
  }
  func::ReturnOp::create(rewriter, loc, packed);

  // <f> takes the packed tensors where it took the raw ones, and any
  // further ones after its arguments.
  for (auto [index, pack] : llvm::enumerate(ordered)) {
    Type packedType = pack.getDestType();
    BlockArgument argument;
    if (index < byArgument.size()) {
      argument = byArgument[index].argument;
      rewriter.modifyOpInPlace(kernel, [&] { argument.setType(packedType); });
    } else {
      unsigned end = kernel.getNumArguments();
      // A structured binding cannot be captured before C++20.
      Location packLoc = pack.getLoc();
      rewriter.modifyOpInPlace(kernel, [&] {
        (void)kernel.insertArgument(end, packedType, DictionaryAttr(), packLoc);
      });
      argument = kernel.getArgument(end);
    }
    rewriter.replaceOp(pack, argument);
  }
  // The computations read the raw arguments; they went with the packs.
  for (Operation *op : llvm::reverse(computations))
    if (op->use_empty())
      rewriter.eraseOp(op);
  rewriter.modifyOpInPlace(kernel, [&] {
    kernel.setFunctionType(rewriter.getFunctionType(
        kernel.getBody().front().getArgumentTypes(), kernel.getResultTypes()));
    kernel->setAttr(kPackWeightsAttr,
                    FlatSymbolRefAttr::get(packWeights.getSymNameAttr()));
  });
  return packWeights;
}
