// Decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs of the
// AMD Zen family (znver4, znver5): decode-factored-avx512.mlir's steps
// without its software prefetch. On these cores the f32 decode loop is
// compute-bound and the hardware prefetcher keeps the row stream ahead;
// the prefetch instructions only take issue slots (docs/benchmarks.md,
// "Software prefetch on Zen 4").
//
// Input: the seed form, weights NxGxK (int), scales and zero-points NxGx1
// read through (d0, d1, 0), activation 1x1xGxK, result 1x1xN (f32).
// Numbers: 16 lanes, one row per tile, as decode-factored-avx512.mlir.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @vectorize_f32_decode(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.include @vectorize_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
