// prefill-packed-int8-vnni.mlir's steps for Intel AVX-512 VNNI cores, with
// the weights prefetched into L2 (locality 2), not L1, and 4 KiB ahead (one
// group of 128, two of 64, four of 32) rather than one group: at M = 17 the
// prefill streams its weights near the read bandwidth, and on an Intel Xeon
// the tile prefetched into L1 made the call 11% slower, one group ahead
// 5-14% slower for groups of 64 and 9-19% for groups of 32
// (docs/benchmarks.md). The driver picks it for any M > 1 on AVX-512 CPUs
// that are not AMD Zen; the weights are packed as for every integer prefill
// and packed decode (docs/scripts.md "Which script runs").
//
// What sets the numbers: as prefill-packed-int8-vnni.mlir.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefill_int8_32_rows(%module: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @prefetch_next_group_into_l2_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %xq_steps = transform.param.constant 4 : i64 -> !transform.param<i64>
    %max_tokens = transform.param.constant 9 : i64 -> !transform.param<i64>
    %folded = transform.include @prefill_int8_32_rows failures(propagate) (%module, %xq_steps, %max_tokens)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  // After bufferization: the prefetch into L2, one vpdpbusd per product sum
  // and the reductions, then the broadcasts (as prefill-packed-int8-vnni.mlir).
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    %func = transform.include @prefetch_next_group_into_l2_int8 failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.include @lower_broadcasts failures(propagate) (%func) : (!transform.any_op) -> ()
    transform.yield
  }
}
