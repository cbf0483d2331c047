// Decode strategy (batch-1 group-quantized matvec) for AVX2 + FMA CPUs
// without AVX-512: decode-factored-avx512.mlir with 8-lane (256-bit)
// vectors. See that script, lib/decode.mlir and docs/scripts.md.
//
// What sets the numbers:
//   8 lanes         f32 lanes of one 256-bit register (the group size must
//                   be a multiple of it); the j loops unrolled whole, by 16
//                   for K = 128: both in @decode_f32_8_lanes.
//   1 row per tile, at most 6144 activation elements (48 groups of 128, 96
//                   of 64) per block, prefetch 1 row ahead: as
//                   in decode-factored-avx512.mlir, for the same reasons.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_f32_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: prefetch the next weight row.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64} : !transform.any_op
    transform.yield
  }
}
