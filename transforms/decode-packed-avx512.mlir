// Packed decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs:
// data tiling, the IREE issue's plan end to end. @f_pack_weights packs the
// weights, scales and zero-points once per model and @f runs on them
// (docs/abi.md): weights N/64 x G x K x 64 (a k step is one 64-byte line,
// a byte per row), scales and zero-points N/64 x G x 1 x 64, N padded with
// zero rows. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers (measured in docs/benchmarks.md):
//   rows = 64     the lanes: 4 zmm of 16 f32 per k step, one 64-byte line,
//                 4 independent accumulators.
//   tiles = 4     row tiles per forall iteration (5, 3, 2 or 1 when 4 does
//                 not divide them: N = 4100 is 13 x 5), their k steps
//                 interleaved: several streams keep more reads in flight
//                 (@tile_up_to_5_row_tiles_interleaved).
//   unroll = 8    k steps per iteration (@decode_packed_f32); the unpack
//                 tiled by the rows too (whole, N = 4100's masked 4160-lane
//                 write took LLVM 20 s).
//   prefetch 4    k-loop iterations ahead (2 KiB per tile, which stays in
//                 L1), into the next group near a group's end; none for the
//                 4-byte activation reads.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @decode_packed_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_k_steps_into_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
