//===- TwoLevelAsSeedInt4Pass.cpp - the pass over the rewrite -------------===//

#include "Quant/Passes.h"

#include "Rewrites/TwoLevelAsSeedInt4.h"

namespace qforge {
#define GEN_PASS_DEF_TWOLEVELASSEEDINT4
#include "Quant/Passes.h.inc"
} // namespace qforge

namespace {
struct TwoLevelAsSeedInt4Pass
    : qforge::impl::TwoLevelAsSeedInt4Base<TwoLevelAsSeedInt4Pass> {
  void runOnOperation() override {
    qforge::rewriteTwoLevelPairsAsSeedInt4(getOperation());
  }
};
} // namespace
