// Integer decode strategy (batch-1 group-quantized matvec) for AVX-512
// VNNI CPUs, on the seed form with u8 weights: the activation, quantized
// per group to int8 once per call, meets the weights in `vpdpbusd` (64
// unsigned weight bytes x 64 signed activation bytes -> 16 i32 lanes).
// Accuracy: the activation's int8 rounding (docs/numerics.md): verify with
// --tolerance=1e-2. Steps: lib/decode.mlir, docs/scripts.md.
//
// What sets the numbers:
//   16 lanes        i32 lanes of one 512-bit vpdpbusd, 4 bytes each: a step
//                   covers 64 weights (the group size must be a multiple of
//                   64); the step loops unrolled whole, by 2 for K = 128:
//                   both in @decode_int8_16_lanes.
//   1 row per tile  as in decode-factored-avx512.mlir.
//   2 chains        the row's sum over groups as 2 partial sums, the group
//                   loop unrolled by 2 (@split_group_sums): with groups of
//                   64, one accumulator's multiply-add per group set the
//                   pace (docs/benchmarks.md).
//   prefetch 1      one row ahead, one prefetch per 64-byte line; locality 2
//                   (prefetcht1, into L2) suits this loop's low compute per
//                   byte better than 3 (see docs/benchmarks.md).
//   64 bytes        the smallest read prefetched: one step's weights (16
//                   lanes x 4 bytes), not the per-group scale and
//                   zero-point scalars.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @split_group_sums(%module: !transform.any_op {transform.readonly}, %chains: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    // A row's sum over groups as 2 partial sums: one accumulator's chain of
    // multiply-adds, one per group, was the pace of small groups.
    %chains = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.include @split_group_sums failures(propagate) (%module, %chains)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: the prefetch of the next row,
  // then the int8 dot products (vpdpbusd) and the rows' sums.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %step_bytes = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_row_int8 failures(propagate) (%module, %step_bytes)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
