// Prefill (M > 1, or a dynamic M's chunks) with int8 activations per row
// and group (opt-in, docs/numerics.md) on 8-bit weights packed
// N/32 x G x K/4 x 32 x 4: blocks of up to 9 tokens (pack_balanced lowers it
// to M) x 32 rows, two 64-byte weight lines per k step, each used by one
// vpdpbusd per token (@prefill_int8_32_rows). The row's numbers
// (strategy-table.json, family prefill-int8):
//   prefetch_into_l2  1: the next group's weight tile prefetched into L2, 0: L1
module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefill_int8_32_rows(%module: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
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

  // After bufferization: the prefetch, vpdpbusd and reductions, then the
  // broadcasts (lowered before, they would hide the products from vpdpbusd).
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    %into_l2 = transform.qforge.strategy_param "prefetch_into_l2" in %module : (!transform.any_op) -> !transform.param<i64>
    %func = transform.tune.alternatives<"prefetch_into_l2"> selected_region = %into_l2 : !transform.param<i64> -> !transform.any_op {
      %f0 = transform.include @prefetch_next_group_int8 failures(propagate) (%module, %rows)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
      transform.yield %f0 : !transform.any_op
    }, {
      %f1 = transform.include @prefetch_next_group_into_l2_int8 failures(propagate) (%module, %rows)
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
      transform.yield %f1 : !transform.any_op
    }
    transform.include @lower_broadcasts failures(propagate) (%func) : (!transform.any_op) -> ()
    transform.yield
  }
}
