// Packed integer prefill strategy (batched group-quantized matmul) for
// AVX-512 VNNI CPUs: decode-packed-int8-vnni.mlir's vpdpbusd layout with
// the activation rows blocked by up to 9 tokens and two weight lines per k
// step, each line used by one vpdpbusd per token; int8 activations per row
// and group (opt-in, docs/numerics.md); 8-bit weights. Input: M > 1 rows
// (M <= 9 is one block, whose dim the unit-dim fold keeps). Packed:
// weights N/32 x G x K/4 x 32 x 4; per call the activation
// 1 x M/t x G x K/4 x t x 4 and the result 1 x M/t x N/32 x t x 32 for a
// block of t tokens. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers:
//   9 tokens      the most per block: 18 accumulators + 2 weight lines + 1
//                 broadcast fit the 32 zmm. pack_balanced lowers it to M
//                 (a block costs its tokens + 1: M = 17 -> two of 9, 128 ->
//                 sixteen of 8), and the block is unrolled whole, in
//                 @prefill_int8_32_rows (docs/scripts.md).
//   32 rows, k by 4  two 64-byte lines per k step: with the tokens, enough
//                 independent accumulators for vpdpbusd's latency on two
//                 ports (other row counts: docs/benchmarks.md). The k steps
//                 are not unrolled.
//   4 k steps     (16 k) x a block's tokens of the int8 activation's pack
//                 at a time.
//   prefetch 1    the next group's weight tile.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @prefill_int8_32_rows(%module: !transform.any_op {transform.readonly}, %xq_steps: !transform.param<i64> {transform.readonly}, %max_tokens: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %xq_steps = transform.param.constant 4 : i64 -> !transform.param<i64>
    %max_tokens = transform.param.constant 9 : i64 -> !transform.param<i64>
    %folded = transform.include @prefill_int8_32_rows failures(propagate) (%module, %xq_steps, %max_tokens)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  // After bufferization: the prefetch, one vpdpbusd per product sum and
  // the reductions, and only then the token broadcasts of the group sums
  // and the activation pack's transposes (lowered before, the broadcast of
  // the activation bytes would hide the product from the vpdpbusd pattern).
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    %func = transform.include @prefetch_next_group_int8 failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.include @lower_broadcasts failures(propagate) (%func) : (!transform.any_op) -> ()
    transform.yield
  }
}
