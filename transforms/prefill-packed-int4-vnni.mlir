// Packed integer prefill strategy for 4-bit weights on AVX-512 VNNI CPUs:
// prefill-packed-int8-vnni.mlir (M > 1 rows, int8 activations) on weights
// stored two per byte (dims (1, m, n, g, k/2, k%2)). Packed: weights
// N/32 x G x K/8 x 32 x 4 bytes (a byte step is two 64-byte lines, each
// two vpdpbusd operands: low and high nibbles). Steps: lib/packed.mlir,
// docs/scripts.md.
//
// What sets the numbers:
//   9 tokens x 32 rows, byte pairs by 4  the pack, the unpack tiles and the
//                 unrolls of tokens and lines, in @prefill_int4_32_rows
//                 (tokens balanced to M as in prefill-packed-int8-vnni.mlir:
//                 the nibble extraction is a block's other work per line),
//                 with the nibble loop outside the byte loop so that the
//                 accumulators stay in registers (docs/benchmarks.md).
//   4 steps       (32 k) x a block's tokens of the int8 activation's pack
//                 at a time.
//   prefetch 1    the next group's weight tile.
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

  // After bufferization, as prefill-packed-int8-vnni.mlir: the prefetch,
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
