//===- TargetInfo.h - what the strategies need to know of a CPU -*- C++ -*-===//
//
// The target a kernel is compiled for, described once: the resolved CPU name,
// its instruction set features and the class the strategy table puts it in.
// Strategy selection reads it; codegen gets the same TargetChoice. Computed
// once per tool run (one TargetMachine), not per quantized matmul.
//
//===----------------------------------------------------------------------===//
#ifndef QFORGE_DRIVER_TARGETINFO_H
#define QFORGE_DRIVER_TARGETINFO_H

#include "Driver/Target.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace qforge {

class TargetInfo {
public:
  /// Resolves `choice` (the host for --mcpu=native) with LLVM's X86 target;
  /// sets `error` for an unknown CPU or feature.
  static std::optional<TargetInfo> create(const TargetChoice &choice,
                                          std::string &error);

  /// The resolved CPU name ("znver5" for --mcpu=native on a Zen 5 host).
  llvm::StringRef getCpu() const { return cpu; }
  /// "CPU 'znver5'" (plus the --mattr features): how messages name it.
  llvm::StringRef getDescription() const { return description; }
  /// Whether the target has the LLVM feature `name` ("avx512f", "avxvnni").
  bool hasFeature(llvm::StringRef name) const;
  /// Whether `name` is a feature LLVM's X86 target knows (the table's
  /// feature names are checked against it).
  bool isKnownFeature(llvm::StringRef name) const;
  /// The widest vector register in bytes: 64 with AVX-512F, 32 with AVX, 16.
  unsigned getVectorBytes() const;

private:
  std::string cpu;
  std::string description;
  llvm::StringMap<bool> features;
};

} // namespace qforge

#endif // QFORGE_DRIVER_TARGETINFO_H
