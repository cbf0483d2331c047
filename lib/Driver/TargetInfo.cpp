//===- TargetInfo.cpp - what the strategies need to know of a CPU ---------===//

#include "Driver/TargetInfo.h"

#include "llvm/MC/MCSubtargetInfo.h"

std::optional<qforge::TargetInfo>
qforge::TargetInfo::create(const TargetChoice &choice, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(choice, error);
  if (!machine)
    return std::nullopt;
  const llvm::MCSubtargetInfo *subtarget = machine->getMCSubtargetInfo();
  TargetInfo info;
  info.cpu = machine->getTargetCPU().str();
  info.description = describeTarget(choice, info.cpu);
  // Every feature of the X86 target, resolved once (implied features
  // included: +avx512f brings +avx2 and +fma).
  for (const llvm::SubtargetFeatureKV &feature :
       subtarget->getAllProcessorFeatures())
    info.features[feature.Key] =
        subtarget->checkFeatures(("+" + llvm::StringRef(feature.Key)).str());
  return info;
}

bool qforge::TargetInfo::hasFeature(llvm::StringRef name) const {
  auto it = features.find(name);
  return it != features.end() && it->second;
}

bool qforge::TargetInfo::isKnownFeature(llvm::StringRef name) const {
  return features.contains(name);
}

unsigned qforge::TargetInfo::getVectorBytes() const {
  if (hasFeature("avx512f"))
    return 64;
  return hasFeature("avx") ? 32 : 16;
}
