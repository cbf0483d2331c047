// Find the group-quantized matmul and shorten its dequantization body: the
// library sequence @match_and_simplify_dequant (lib/common.mlir) alone.
//
// Usage: qforge-opt --transform-interpreter \
//          --transform-preload-library=transform-library-paths=transforms/lib,THIS_FILE IN.mlir
// (or stock mlir-opt with --load-dialect-plugin=build/lib/QForgePlugin.so).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
