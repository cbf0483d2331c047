//===- NormalizeDequantContractionPass.cpp - the pass over the rewrite ----===//

#include "Quant/Passes.h"

#include "Rewrites/NormalizeDequantContraction.h"

namespace qforge {
#define GEN_PASS_DEF_NORMALIZEDEQUANTCONTRACTION
#include "Quant/Passes.h.inc"
} // namespace qforge

namespace {
struct NormalizeDequantContractionPass
    : qforge::impl::NormalizeDequantContractionBase<
          NormalizeDequantContractionPass> {
  void runOnOperation() override {
    if (mlir::failed(qforge::normalizeDequantContractions(getOperation())))
      signalPassFailure();
  }
};
} // namespace
