// Find the group-quantized matmul and shorten its dequantization body.
//
// Usage: qforge-opt --transform-interpreter \
//          --transform-preload-library=transform-library-paths=THIS_FILE IN.mlir
// (or stock mlir-opt with --load-dialect-plugin=build/lib/QForgePlugin.so).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %module: !transform.any_op {transform.readonly}) {
    // Recognize the pair structurally: the dequant generic (int-to-float,
    // minus zero-point, times scale read through (d0, d1, 0)) and the
    // contraction with two reduction dims (groups x elements) that it feeds.
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // extui + uitofp -> one uitofp: one instruction less per weight once
    // vectorized, and no i32 intermediate four times the width of the i8.
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}
