// Packed decode strategy for 4-bit weights on AVX2 + FMA CPUs without
// AVX-512: decode-packed-int4-avx512.mlir with 16-row tiles (two 8-lane ymm
// per k step): weights N/16 x G x K/2 x 16 bytes, scales and zero-points
// N/16 x G x 1 x 16 -- the layout prefill-packed-int4-avx2.mlir reads.
// Steps: lib/packed.mlir.
//
// What sets the numbers:
//   rows = 16     the lanes: a byte step is 16 bytes, two k steps of 2 ymm
//                 (low nibbles, then high ones) into the same accumulators.
//   unroll = 4, prefetch 1 group ahead: as the AVX-512 script; unpack 16.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @decode_packed_int4_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
