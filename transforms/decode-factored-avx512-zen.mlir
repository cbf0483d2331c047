// decode-factored-avx512.mlir's steps without its software prefetch, for AMD
// Zen 4 cores with rows of at most 6144 weights (one block): there the loop is
// compute-bound and the hardware prefetcher follows the row stream
// (docs/scripts.md "Which script runs", docs/benchmarks.md).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
