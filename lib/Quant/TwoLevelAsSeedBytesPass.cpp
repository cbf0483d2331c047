//===- TwoLevelAsSeedBytesPass.cpp - the pass over the rewrite ------------===//

#include "Quant/Passes.h"

#include "Rewrites/TwoLevelAsSeedBytes.h"

namespace qforge {
#define GEN_PASS_DEF_TWOLEVELASSEEDBYTES
#include "Quant/Passes.h.inc"
} // namespace qforge

namespace {
struct TwoLevelAsSeedBytesPass
    : qforge::impl::TwoLevelAsSeedBytesBase<TwoLevelAsSeedBytesPass> {
  void runOnOperation() override {
    qforge::rewriteTwoLevelPairsAsSeedBytes(getOperation());
  }
};
} // namespace
