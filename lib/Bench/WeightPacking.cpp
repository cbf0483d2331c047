//===- WeightPacking.cpp - run <f>_pack_weights once before <f> -----------===//

#include "Bench/WeightPacking.h"
#include "Abi/AbiAttributes.h"
#include "Driver/Abi.h"

using namespace mlir;

FailureOr<std::optional<qforge::WeightPacking>>
qforge::findWeightPacking(func::FuncOp kernel, FunctionType rawType,
                          std::string &error) {
  auto symbol = kernel->getAttrOfType<FlatSymbolRefAttr>(kPackWeightsAttr);
  if (!symbol)
    return std::optional<WeightPacking>();
  func::FuncOp packFunc = getPackWeightsFunction(kernel);
  auto positions =
      packFunc
          ? packFunc->getAttrOfType<DenseI64ArrayAttr>(kPrepackedArgumentsAttr)
          : DenseI64ArrayAttr();
  if (!positions) {
    error = "@" + kernel.getSymName().str() + " names " +
            symbol.getValue().str() +
            " as its weight packing, which is not a function with '" +
            kPrepackedArgumentsAttr.str() + "'";
    return failure();
  }
  FunctionType kernelType = kernel.getFunctionType(),
               packType = packFunc.getFunctionType();
  bool matches = packType.getNumInputs() == positions.size() &&
                 packType.getNumResults() == positions.size() &&
                 kernelType.getNumInputs() == rawType.getNumInputs() &&
                 kernelType.getResults() == rawType.getResults();
  // The arguments that are not packed keep their types.
  for (unsigned position = 0; matches && position < rawType.getNumInputs();
       ++position)
    if (!llvm::is_contained(positions.asArrayRef(), int64_t(position)))
      matches = kernelType.getInput(position) == rawType.getInput(position);
  for (auto [index, position] : llvm::enumerate(positions.asArrayRef())) {
    if (!matches || position < 0 ||
        position >= int64_t(rawType.getNumInputs()) ||
        packType.getInput(index) != rawType.getInput(position) ||
        packType.getResult(index) != kernelType.getInput(position)) {
      matches = false;
      break;
    }
  }
  if (!matches) {
    error = "the signature of @" + packFunc.getSymName().str() +
            " does not match the arguments of @" + kernel.getSymName().str() +
            " at positions '" + kPrepackedArgumentsAttr.str() + "'";
    return failure();
  }
  WeightPacking packing;
  packing.functionName = packFunc.getSymName().str();
  packing.type = packType;
  packing.packedPositions.assign(positions.asArrayRef().begin(),
                                 positions.asArrayRef().end());
  return std::optional<WeightPacking>(std::move(packing));
}

void qforge::packInputs(void (*pack)(void **), const WeightPacking &packing,
                        const KernelCall &rawCall, KernelCall &kernelCall) {
  KernelCall packCall;
  std::string error;
  bool created = KernelCall::create(packing.type, packCall, error);
  assert(created && "findWeightPacking checked the types");
  (void)created;
  for (auto [index, position] : llvm::enumerate(packing.packedPositions))
    packCall.inputs[index].copyFrom(rawCall.inputs[position]);
  pack(packCall.getPackedArguments());
  for (size_t position = 0; position < rawCall.inputs.size(); ++position) {
    auto packed = llvm::find(packing.packedPositions, int64_t(position));
    if (packed == packing.packedPositions.end())
      kernelCall.inputs[position].copyFrom(rawCall.inputs[position]);
    else
      kernelCall.inputs[position].copyFrom(
          packCall.results[packed - packing.packedPositions.begin()]);
  }
}
