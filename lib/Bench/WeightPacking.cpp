//===- WeightPacking.cpp - run <f>_pack_weights once before <f> -----------===//

#include "Bench/WeightPacking.h"
#include "Abi/AbiAttributes.h"
#include "Driver/Abi.h"
#include "Rewrites/SplitParameterPacking.h"

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
  PackedSignature signature =
      getPackedSignature(positions.asArrayRef(), rawType.getNumInputs());
  // <f>'s arguments: the raw ones, each packed one replaced by its first
  // result, then the further results.
  SmallVector<Type> expected(rawType.getInputs());
  bool matches = packType.getNumInputs() == signature.inputs.size() &&
                 packType.getNumResults() == positions.size() &&
                 kernelType.getResults() == rawType.getResults();
  for (auto [index, position] : llvm::enumerate(signature.inputs))
    matches = matches && position >= 0 &&
              position < int64_t(rawType.getNumInputs()) &&
              packType.getInput(index) == rawType.getInput(position);
  for (auto [result, kernelIndex] : llvm::enumerate(signature.kernelIndices)) {
    if (!matches)
      break;
    if (kernelIndex >= int64_t(expected.size()))
      expected.push_back(packType.getResult(result));
    else
      expected[kernelIndex] = packType.getResult(result);
  }
  matches = matches && TypeRange(expected) == kernelType.getInputs();
  if (!matches) {
    error = "the signature of @" + packFunc.getSymName().str() +
            " does not match the arguments of @" + kernel.getSymName().str() +
            " at positions '" + kPrepackedArgumentsAttr.str() + "'";
    return failure();
  }
  WeightPacking packing;
  packing.functionName = packFunc.getSymName().str();
  packing.type = packType;
  packing.rawPositions.assign(signature.inputs.begin(), signature.inputs.end());
  packing.kernelIndices.assign(signature.kernelIndices.begin(),
                               signature.kernelIndices.end());
  return std::optional<WeightPacking>(std::move(packing));
}

void qforge::packInputs(void (*pack)(void **), const WeightPacking &packing,
                        const KernelCall &rawCall, KernelCall &kernelCall) {
  KernelCall packCall;
  std::string error;
  bool created = KernelCall::create(packing.type, packCall, error);
  assert(created && "findWeightPacking checked the types");
  (void)created;
  for (auto [index, position] : llvm::enumerate(packing.rawPositions))
    packCall.inputs[index].copyFrom(rawCall.inputs[position]);
  pack(packCall.getPackedArguments());
  for (size_t position = 0; position < rawCall.inputs.size(); ++position)
    if (!llvm::is_contained(packing.rawPositions, int64_t(position)))
      kernelCall.inputs[position].copyFrom(rawCall.inputs[position]);
  for (auto [result, kernelIndex] : llvm::enumerate(packing.kernelIndices))
    kernelCall.inputs[kernelIndex].copyFrom(packCall.results[result]);
}
