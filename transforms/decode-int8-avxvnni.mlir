// Integer decode strategy for AVX2 CPUs with AVX-VNNI and no AVX512-VNNI
// (e.g. Alder Lake, Meteor Lake): decode-int8-vnni.mlir (same accuracy)
// with 256-bit vectors, the weights meeting the activation in the
// VEX-encoded `vpdpbusd` (32 weight bytes x 32 activation bytes -> 8 i32
// lanes). See that script, lib/decode.mlir and docs/scripts.md.
//
// What sets the numbers:
//   8 lanes         i32 lanes of one 256-bit vpdpbusd: a step covers 32
//                   weights (the group size must be a multiple of 32); the
//                   step loops unrolled whole, by 4 for K = 128: both in
//                   @decode_int8_8_lanes.
//   1 row per tile, prefetch 1 row ahead with locality 2: as in
//                   decode-int8-vnni.mlir, whose measurements set them (not
//                   re-measured for this 256-bit loop).
//   4 chains        the row's sum over groups as 4 partial sums, the group
//                   loop unrolled by 4 (@split_group_sums): with groups of
//                   32 (this script's on AVX-512 VNNI CPUs too), one
//                   accumulator's multiply-add per group set the pace
//                   (docs/benchmarks.md).
//   32 bytes        the smallest read prefetched: one step's weights (8
//                   lanes x 4 bytes), not the per-group scalars.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @split_group_sums(%module: !transform.any_op {transform.readonly}, %chains: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    // A row's sum over groups as 4 partial sums: one accumulator's chain of
    // multiply-adds, one per group, was the pace of small groups.
    %chains = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.include @split_group_sums failures(propagate) (%module, %chains)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: the prefetch of the next row,
  // then the int8 dot products and the rows' sums.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %step_bytes = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_row_int8 failures(propagate) (%module, %step_bytes)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
