// Prefill (M > 1, or a dynamic M's chunks) with int8 activations on 4-bit
// weights (byte pairs, dims (1, m, n, g, k/2, k%2)): prefill-int8.mlir's
// blocks on weights N/32 x G x K/8 x 32 x 4 bytes (a byte step is two
// 64-byte lines, each two vpdpbusd operands: low and high nibbles). One row
// of the table (family prefill-int4-int8): 9 tokens x 32 rows, byte pairs
// by 4 (@prefill_int4_32_rows), 4 k steps of the activation's pack per
// block, the next group prefetched. Steps: lib/packed.mlir, docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefill_int4_32_rows(%module: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %xq_steps = transform.param.constant 4 : i64 -> !transform.param<i64>
    %max_tokens = transform.param.constant 9 : i64 -> !transform.param<i64>
    %folded = transform.include @prefill_int4_32_rows failures(propagate) (%module, %xq_steps, %max_tokens)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  // After bufferization, as prefill-int8.mlir: the prefetch,
  // the vpdpbusd (on the bytes masked to each nibble) and the reductions,
  // then the broadcasts and transposes.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    %func = transform.include @prefetch_next_group_int8 failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.include @lower_broadcasts failures(propagate) (%func) : (!transform.any_op) -> ()
    transform.yield
  }
}
