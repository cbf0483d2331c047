//===- PDLLPatternSets.cpp - the pattern sets written in patterns/*.pdll --===//
//
// mlir-pdll turns each .pdll file into a header defining a file-local
// `populateGeneratedPDLLPatterns`; each set is included into a namespace of
// its own so that the sets can share this translation unit.
//
//===----------------------------------------------------------------------===//

#include "Patterns/ByteDotProducts.h"
#include "Patterns/NibbleTables.h"
#include "Patterns/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/PDL/IR/PDL.h"
#include "mlir/Dialect/PDLInterp/IR/PDLInterp.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/TypeSwitch.h"

namespace fold_int_to_float_casts {
#include "FoldIntToFloatCasts.h.inc"
} // namespace fold_int_to_float_casts

namespace fold_broadcast_transpose {
#include "FoldBroadcastTranspose.h.inc"
} // namespace fold_broadcast_transpose

namespace x86_int8_dot_products {
#include "X86Int8DotProducts.h.inc"
} // namespace x86_int8_dot_products

namespace x86_nibble_tables {
#include "X86NibbleTables.h.inc"
} // namespace x86_nibble_tables

namespace reassociate_fp_reductions {
#include "ReassociateFPReductions.h.inc"
} // namespace reassociate_fp_reductions

void qforge::populateFoldIntToFloatCastsPatterns(
    mlir::RewritePatternSet &patterns) {
  fold_int_to_float_casts::populateGeneratedPDLLPatterns(patterns);
}

void qforge::populateFoldBroadcastTransposePatterns(
    mlir::RewritePatternSet &patterns) {
  fold_broadcast_transpose::populateGeneratedPDLLPatterns(patterns);
}

void qforge::populateReassociateFPReductionsPatterns(
    mlir::RewritePatternSet &patterns) {
  reassociate_fp_reductions::populateGeneratedPDLLPatterns(patterns);
}

void qforge::populateX86Int8DotProductsPatterns(
    mlir::RewritePatternSet &patterns) {
  x86_int8_dot_products::populateGeneratedPDLLPatterns(patterns);
}

void qforge::populateX86NibbleTablesPatterns(
    mlir::RewritePatternSet &patterns) {
  x86_nibble_tables::populateGeneratedPDLLPatterns(patterns);
}
