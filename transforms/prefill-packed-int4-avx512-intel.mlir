// prefill-packed-int4-avx512.mlir's steps with 12 tokens x 32 rows, for
// Intel AVX-512 cores, as prefill-packed-avx512-intel.mlir: the nibble
// extraction and conversion of two weight vectors per byte step then feed
// 24 accumulators (M = 128: 0.49 -> 0.54 of the f32 peak on an Intel Xeon,
// docs/benchmarks.md). Static M of at least 6 only, as that script (below:
// prefill-packed-int4-avx512-intel-64-rows.mlir).
//
// What sets the numbers:
//   12 tokens x 32 rows  the pack and the unpack tiles (pack_balanced).
//   k block 8, unroll 4  byte pairs, byte steps: @prefill_packed_int4_f32's.
//   8 blocks      from 8 blocks of tokens on (M >= 85), a row tile's
//                 nibbles of a group are converted to f32 once, before its
//                 blocks: @prefill_packed_int4_f32_converting_weights_ahead.
//   prefetch 1    the next group's weight tile.
//   tables        after bufferization, each nibble's f32 value looked up
//                 in a vpermps table (@x86_nibble_tables). Not in
//                 prefill-packed-int4-avx512.mlir: on Zen 5 its 5 tokens x
//                 64 rows then spill (the widened bytes stay live for both
//                 nibbles), and it was not measured there.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_int4_f32_converting_weights_ahead(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 12, 32, 0, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // The 4-bit f32 prefill's tiles; with 8 or more blocks of tokens each
    // row tile's group of nibbles converted once for all of them, since
    // here the conversions take the FMAs' ports.
    transform.include @prefill_packed_int4_f32_converting_weights_ahead failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @x86_nibble_tables failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
