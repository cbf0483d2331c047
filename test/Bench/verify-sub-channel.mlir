// Execution test: a sub-channel quantized weight (groups of 128 along K,
// scales and zero-points in the type) through the quantized front door, the
// reshape folding and the factoring rewrite (first left untiled), against the
// reference (the same quantization semantics, linalg to loops): normalized
// error within 1e-5.
// RUN: split-file %s %t
// RUN: %python %examples/gen_subchannel_kernel.py 24 384 128 > %t/kernel.mlir
// RUN: qforge-bench %t/kernel.mlir --script=%t/factor.mlir --verify --tolerance=1e-5 --time=false | FileCheck %s
// And through the shipped decode strategy for an AVX-512 or AVX2 host (rows
// and groups tiled, vectorized, threads), on 2 threads.
// RUN: qforge-bench %t/kernel.mlir --threads=2 --verify --tolerance=1e-5 --time=false | FileCheck %s

// CHECK: verify: {{.*}}: PASS

//--- factor.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %named = transform.structured.match ops{["linalg.matmul"]} in %module : (!transform.any_op) -> !transform.any_op
    %generic = transform.structured.generalize %named : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.fold_reshapes_by_expansion
    } : !transform.any_op
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
