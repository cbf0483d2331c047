// decode-int8-vnni.mlir's steps with the next row prefetched into L1
// (prefetcht0) instead of L2, for AMD Zen 5 cores: there the L2 prefetch left
// the loop waiting on the row (Zen 5: 0.83 -> 0.93 of the read bandwidth on
// the seed, docs/benchmarks.md; docs/scripts.md "Which script runs").
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: the prefetch of the next row,
  // then the int8 dot products (vpdpbusd) and the rows' sums.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @prefetch_next_row_int8_into_l1 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
