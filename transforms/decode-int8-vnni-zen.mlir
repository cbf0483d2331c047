// decode-int8-vnni.mlir's steps with the next row prefetched into L1
// (prefetcht0) instead of L2, for AMD Zen 5 cores: there the L2 prefetch left
// the loop waiting on the row (Zen 5: 0.83 -> 0.93 of the read bandwidth on
// the seed, docs/benchmarks.md; docs/scripts.md "Which script runs"). That
// prefetch still takes every read, the group's scale and zero-point too
// (as measured there). The 2 partial sums over groups are
// decode-int8-vnni.mlir's, measured on an Intel Xeon only: a multiply-add's
// latency is 4 cycles on Zen 5 too, and the split adds no instruction to
// the loop.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @split_group_sums(%module: !transform.any_op {transform.readonly}, %chains: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    // A row's sum over groups as 2 partial sums (decode-int8-vnni.mlir).
    %chains = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.include @split_group_sums failures(propagate) (%module, %chains)
      : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: the prefetch of the next row,
  // then the int8 dot products (vpdpbusd) and the rows' sums.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @prefetch_next_row_int8_into_l1 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
