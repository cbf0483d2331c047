// Decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs, on the
// seed form: weights NxGxK (int), scales and zero-points NxGx1 read through
// (d0, d1, 0), activation 1x1xGxK, result 1x1xN (f32). One weight row per
// iteration of the threads' scf.forall, in blocks of groups; per 16
// weights one convert and one FMA into a 16-lane accumulator; scale and
// zero-point once per group. Steps: lib/decode.mlir, docs/scripts.md.
//
// What sets the numbers (measured in docs/benchmarks.md):
//   16 lanes        f32 lanes of one 512-bit register (the group size must
//                   be a multiple of it); the j loops (K/16 chunks of a
//                   group) unrolled whole, by 8 for K = 128: both in
//                   @decode_f32_16_lanes.
//   1 row per tile  one sequential weight stream per iteration, and at most
//                   6144 activation elements per block of groups (48 of
//                   128; the block's activation stays in L1): in
//                   @tile_f32_rows_in_group_blocks.
//   prefetch 1      one row ahead, one prefetch per 64-byte line.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: while one row is converted and
  // multiplied, the next row's weights, scales and zero-points are fetched.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64} : !transform.any_op
    transform.yield
  }
}
