//===- LiftParameterPacking.cpp - a matmul's packing into the kernel's ----===//
//
// A strategy that packs the weights splits the packing off the matmul it
// ran on into `<matmul>_pack_weights` (split_parameter_packing). Outlined
// from a kernel, that matmul is an internal function: its packing moves
// into the kernel's own public `<kernel>_pack_weights`, and the kernel
// takes the packed tensors (docs/abi.md). Not a pass: between the script
// (which changed the matmul's signature) and this step the call does not
// match its callee, so the IR does not verify; the driver runs it right
// after the script (test/Driver/whole-module-packed.mlir checks the result).
//
//===----------------------------------------------------------------------===//

#include "Driver/Abi.h"
#include "Driver/Surgery.h"

#include "Abi/AbiAttributes.h"
#include "Rewrites/SplitParameterPacking.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

/// The parent's `<parent>_pack_weights`, created empty (public, no
/// arguments) on first use; `parentPositions` gets the parent argument
/// positions it packs so far. A module that defines that name for anything
/// else is refused at `call`.
static FailureOr<func::FuncOp>
getOrCreateParentPack(func::FuncOp parent, func::CallOp call,
                      SmallVectorImpl<int64_t> &parentPositions) {
  std::string packName = qforge::getPackWeightsName(parent.getSymName());
  auto module = parent->getParentOfType<ModuleOp>();
  auto parentPack = module.lookupSymbol<func::FuncOp>(packName);
  if (parentPack) {
    if (qforge::getPackWeightsFunction(parent) != parentPack)
      return call.emitError() << "the module already defines @" << packName;
    llvm::append_range(parentPositions, parentPack
                                            ->getAttrOfType<DenseI64ArrayAttr>(
                                                qforge::kPrepackedArgumentsAttr)
                                            .asArrayRef());
    return parentPack;
  }
  OpBuilder builder(parent.getContext());
  builder.setInsertionPointAfter(parent);
  parentPack = func::FuncOp::create(builder, parent.getLoc(), packName,
                                    builder.getFunctionType({}, {}));
  Block *body = parentPack.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, parent.getLoc(), ValueRange{});
  return parentPack;
}

std::optional<qforge::ParameterPacking>
qforge::takeParameterPacking(func::FuncOp outlined) {
  func::FuncOp matmulPack = qforge::getPackWeightsFunction(outlined);
  if (!matmulPack)
    return std::nullopt;
  ParameterPacking packing;
  packing.function = matmulPack;
  llvm::append_range(packing.positions, matmulPack
                                            ->getAttrOfType<DenseI64ArrayAttr>(
                                                qforge::kPrepackedArgumentsAttr)
                                            .asArrayRef());
  // The matmul's pack function is an internal step of the parents'.
  matmulPack.setPrivate();
  matmulPack->removeAttr(qforge::kPrepackedArgumentsAttr);
  outlined->removeAttr(qforge::kPackWeightsAttr);
  return packing;
}

LogicalResult qforge::liftParameterPacking(const ParameterPacking &packing,
                                           func::CallOp call) {
  func::FuncOp matmulPack = packing.function;
  auto parent = call->getParentOfType<func::FuncOp>();
  ArrayRef<int64_t> positions = packing.positions;
  SmallVector<BlockArgument> raw;
  for (int64_t position : positions) {
    auto argument = dyn_cast<BlockArgument>(call.getOperand(position));
    if (!argument || argument.getOwner() != &parent.getBody().front() ||
        !argument.hasOneUse())
      return call.emitError()
             << "the strategy packs operand #" << position << " of @"
             << call.getCallee()
             << " once, ahead of calls; that needs it to be an argument of @"
             << parent.getSymName()
             << " that only this quantized matmul reads (docs/abi.md)";
    raw.push_back(argument);
  }

  // The parent's pack function: raw parameters in, packed ones out, in the
  // parent's argument order; one more call per lifted matmul.
  OpBuilder builder(parent.getContext());
  SmallVector<int64_t> parentPositions;
  FailureOr<func::FuncOp> found =
      getOrCreateParentPack(parent, call, parentPositions);
  if (failed(found))
    return failure();
  func::FuncOp parentPack = *found;
  // Insert the new positions in order; each raw argument of the pack
  // function follows its parent position.
  Block *packBody = &parentPack.getBody().front();
  auto packReturn = cast<func::ReturnOp>(packBody->getTerminator());
  SmallVector<Value> results(packReturn.getOperands());
  SmallVector<Value> callArguments;
  for (BlockArgument argument : raw) {
    int64_t position = argument.getArgNumber();
    unsigned slot =
        llvm::lower_bound(parentPositions, position) - parentPositions.begin();
    parentPositions.insert(parentPositions.begin() + slot, position);
    callArguments.push_back(
        packBody->insertArgument(slot, argument.getType(), argument.getLoc()));
    results.insert(results.begin() + slot, Value());
  }
  builder.setInsertionPoint(packReturn);
  auto packCall =
      func::CallOp::create(builder, call.getLoc(), matmulPack, callArguments);
  for (auto [index, argument] : llvm::enumerate(callArguments)) {
    unsigned slot = llvm::find(packBody->getArguments(), argument) -
                    packBody->getArguments().begin();
    results[slot] = packCall.getResult(index);
  }
  packReturn->setOperands(results);
  parentPack.setFunctionType(builder.getFunctionType(
      packBody->getArgumentTypes(), ValueRange(results).getTypes()));
  parentPack->setAttr(qforge::kPrepackedArgumentsAttr,
                      builder.getDenseI64ArrayAttr(parentPositions));

  // The parent takes the packed tensors.
  SmallVector<Type> inputs(parent.getArgumentTypes());
  for (auto [argument, packedType] :
       llvm::zip(raw, matmulPack.getResultTypes())) {
    argument.setType(packedType);
    inputs[argument.getArgNumber()] = packedType;
  }
  parent.setFunctionType(
      builder.getFunctionType(inputs, parent.getResultTypes()));
  parent->setAttr(qforge::kPackWeightsAttr,
                  FlatSymbolRefAttr::get(parentPack.getSymNameAttr()));
  return success();
}
