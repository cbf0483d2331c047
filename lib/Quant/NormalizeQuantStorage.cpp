//===- NormalizeQuantStorage.cpp - si8 -> i8 (signed) in quant types ------===//

#include "Quant/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"

namespace qforge {
#define GEN_PASS_DEF_NORMALIZEQUANTSTORAGE
#include "Quant/Passes.h.inc"
} // namespace qforge

using namespace mlir;

namespace {
/// The signless integer type of `storage`'s width when it is signed, else
/// null (nothing to do).
IntegerType signlessIfSigned(Type storage) {
  auto integer = dyn_cast<IntegerType>(storage);
  if (!integer || !integer.isSigned())
    return nullptr;
  return IntegerType::get(integer.getContext(), integer.getWidth());
}

struct NormalizeQuantStorage
    : qforge::impl::NormalizeQuantStorageBase<NormalizeQuantStorage> {
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    unsigned signedFlag = quant::QuantizationFlags::Signed;
    replacer.addReplacement(
        [&](quant::UniformQuantizedType type) -> std::optional<Type> {
          IntegerType storage = signlessIfSigned(type.getStorageType());
          if (!storage)
            return std::nullopt;
          return quant::UniformQuantizedType::get(
              type.getFlags() | signedFlag, storage, type.getExpressedType(),
              type.getScale(), type.getZeroPoint(), type.getStorageTypeMin(),
              type.getStorageTypeMax());
        });
    replacer.addReplacement(
        [&](quant::UniformQuantizedPerAxisType type) -> std::optional<Type> {
          IntegerType storage = signlessIfSigned(type.getStorageType());
          if (!storage)
            return std::nullopt;
          return quant::UniformQuantizedPerAxisType::get(
              type.getFlags() | signedFlag, storage, type.getExpressedType(),
              type.getScales(), type.getZeroPoints(),
              type.getQuantizedDimension(), type.getStorageTypeMin(),
              type.getStorageTypeMax());
        });
    replacer.addReplacement(
        [&](quant::UniformQuantizedSubChannelType type) -> std::optional<Type> {
          IntegerType storage = signlessIfSigned(type.getStorageType());
          if (!storage)
            return std::nullopt;
          return quant::UniformQuantizedSubChannelType::get(
              type.getFlags() | signedFlag, storage, type.getExpressedType(),
              type.getScales(), type.getZeroPoints(),
              type.getQuantizedDimensions(), type.getBlockSizes(),
              type.getStorageTypeMin(), type.getStorageTypeMax());
        });
    replacer.recursivelyReplaceElementsIn(getOperation(), /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
