//===- BlockReductionsForCachePass.cpp - the pass over the rewrite --------===//

#include "Quant/Passes.h"

#include "Rewrites/BlockReductionsForCache.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace qforge {
#define GEN_PASS_DEF_BLOCKREDUCTIONSFORCACHE
#include "Quant/Passes.h.inc"
} // namespace qforge

namespace {
struct BlockReductionsForCachePass
    : qforge::impl::BlockReductionsForCacheBase<BlockReductionsForCachePass> {
  void runOnOperation() override {
    qforge::blockReductionsForCache(getOperation());
  }
};
} // namespace
