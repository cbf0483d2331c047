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

#include "llvm/ADT/DenseMap.h"

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
  // The matmul's packing: the call's operands it takes raw, and per result
  // the operand it is packed from (the first in that operand's place, any
  // further one after the call's operands).
  PackedSignature signature =
      getPackedSignature(packing.positions, call.getNumOperands());
  SmallVector<int64_t> parentPositions;
  FailureOr<func::FuncOp> found =
      getOrCreateParentPack(parent, call, parentPositions);
  if (failed(found))
    return failure();
  func::FuncOp parentPack = *found;
  // The parent's packed positions: one per packed argument first, ascending,
  // then one per further result.
  PackedSignature parentSignature =
      getPackedSignatureOfKernel(parentPositions, parent.getNumArguments());
  unsigned inPlace = parentSignature.inputs.size();
  DenseMap<int64_t, BlockArgument> raw;
  for (int64_t position : signature.inputs) {
    auto argument = dyn_cast<BlockArgument>(call.getOperand(position));
    if (!argument || argument.getOwner() != &parent.getBody().front() ||
        argument.getArgNumber() >= parentSignature.rawArguments ||
        !argument.hasOneUse())
      return call.emitError()
             << "the strategy packs operand #" << position << " of @"
             << call.getCallee()
             << " once, ahead of calls; that needs it to be an argument of @"
             << parent.getSymName()
             << " that only this quantized matmul reads (docs/abi.md)";
    raw[position] = argument;
  }

  // The parent's pack function: raw parameters in, in the parent's argument
  // order; packed ones out, each in its slot; one more call per lifted
  // matmul.
  OpBuilder builder(parent.getContext());
  Block *packBody = &parentPack.getBody().front();
  auto packReturn = cast<func::ReturnOp>(packBody->getTerminator());
  SmallVector<Value> results(packReturn.getOperands());
  SmallVector<Value> callArguments;
  SmallVector<int64_t> inputPositions = parentSignature.inputs;
  for (int64_t position : signature.inputs) {
    BlockArgument argument = raw[position];
    auto slot = llvm::lower_bound(inputPositions, argument.getArgNumber());
    unsigned index = slot - inputPositions.begin();
    inputPositions.insert(slot, argument.getArgNumber());
    callArguments.push_back(
        packBody->insertArgument(index, argument.getType(), argument.getLoc()));
  }
  builder.setInsertionPoint(packReturn);
  auto packCall =
      func::CallOp::create(builder, call.getLoc(), matmulPack, callArguments);
  SmallVector<Value> extraArguments;
  for (auto [result, kernelIndex] : llvm::enumerate(signature.kernelIndices)) {
    int64_t parentPosition = raw[packing.positions[result]].getArgNumber();
    Value packedValue = packCall.getResult(result);
    Type packedType = packedValue.getType();
    if (kernelIndex < int64_t(call.getNumOperands())) {
      // In place: the parent's argument takes the packed type.
      unsigned slot =
          std::lower_bound(parentPositions.begin(),
                           parentPositions.begin() + inPlace, parentPosition) -
          parentPositions.begin();
      parentPositions.insert(parentPositions.begin() + slot, parentPosition);
      results.insert(results.begin() + slot, packedValue);
      ++inPlace;
      raw[packing.positions[result]].setType(packedType);
      continue;
    }
    // A further result: a new argument after the parent's others.
    parentPositions.push_back(parentPosition);
    results.push_back(packedValue);
    unsigned end = parent.getNumArguments();
    (void)parent.insertArgument(end, packedType, DictionaryAttr(),
                                call.getLoc());
    extraArguments.push_back(parent.getArgument(end));
  }
  packReturn->setOperands(results);
  parentPack.setFunctionType(builder.getFunctionType(
      packBody->getArgumentTypes(), ValueRange(results).getTypes()));
  parentPack->setAttr(qforge::kPrepackedArgumentsAttr,
                      builder.getDenseI64ArrayAttr(parentPositions));

  // The parent takes the packed tensors, and passes the further ones on.
  call->insertOperands(call.getNumOperands(), extraArguments);
  parent.setFunctionType(builder.getFunctionType(
      parent.getBody().front().getArgumentTypes(), parent.getResultTypes()));
  parent->setAttr(qforge::kPackWeightsAttr,
                  FlatSymbolRefAttr::get(parentPack.getSymNameAttr()));
  return success();
}
