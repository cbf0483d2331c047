// Packed decode strategy for AVX2 + FMA CPUs without AVX-512:
// decode-packed-avx512.mlir with 16-row tiles (two 8-lane ymm per k step):
// weights N/16 x G x K x 16, scales and zero-points N/16 x G x 1 x 16 --
// the layout prefill-packed-avx2.mlir reads, so one packing serves both
// (and both paths of a dynamic token count). Steps: lib/packed.mlir.
//
// What sets the numbers:
//   rows = 16     the lanes: 2 ymm of 8 f32 per k step (16 weight bytes);
//                 4 tiles interleaved give 8 accumulators of 16.
//   unroll = 8    (@decode_packed_f32); the unpack tiled by the rows too.
//   prefetch 4    k-loop iterations ahead, into the next group near a
//                 group's end, for reads of a tile's 16 bytes.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @decode_packed_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @prefetch_k_steps_into_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
