// Libraries that clash -- a sequence defined twice, or declared with
// another signature than its definition -- are diagnostics at both places
// and status 1. MLIR 22's own library assembly
// (transform::detail::assembleTransformLibraryFromPaths) dereferences a
// moved-from module on such a clash: qforge-compile and qforge-opt crashed
// with SIGSEGV (found by the sanitizer build, docs/reliability.md).
// RUN: split-file %s %t
// RUN: %gen_kernel 16 2 32 > %t/kernel.mlir

// A user library defining a sequence the shipped library defines.
// RUN: not qforge-compile %t/kernel.mlir --transform-library=%t/redefines.mlir --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: doubly defined symbol @match_and_simplify_dequant
// TWICE: redefines.mlir:2:3: note: previously defined here
// TWICE: qforge-compile: error: cannot load the transform script

// The same through stock-style preloading in qforge-opt.
// RUN: not qforge-opt %t/kernel.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%t/redefines.mlir --transform-interpreter 2>&1 | FileCheck %s --check-prefix=OPT-TWICE
// OPT-TWICE: error: doubly defined symbol @match_and_simplify_dequant
// OPT-TWICE-NOT: Stack dump

// A declaration whose signature is not the library's.
// RUN: not qforge-opt %t/kernel.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%t/wrong-signature.mlir --transform-interpreter 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// RUN: not qforge-compile %t/kernel.mlir --script=%t/wrong-signature.mlir --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// SIGNATURE: wrong-signature.mlir:2:3: error: external definition has a mismatching signature ('(!transform.any_op) -> (!transform.any_op, !transform.any_op)')
// SIGNATURE-NOT: Stack dump

//--- redefines.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %dequant, %contraction : !transform.any_op, !transform.any_op
  }
}

//--- wrong-signature.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module) : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
