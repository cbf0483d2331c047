// Packed prefill strategy for 4-bit weights on AVX-512 CPUs:
// prefill-packed-avx512.mlir on weights stored two per byte (contraction
// dims (1, m, n, g, k/2, k%2)). Packed: weights N/64 x G x K/2 x 64 (a
// 64-byte line per byte step = two k steps); per call the activation
// 1 x M/8 x G x K/2 x 2 x 8. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers (the register block is the 8-bit strategy's):
//   8 tokens x 64 rows  the pack and the unpack tiles: 8 x 4 accumulators.
//   k block = 8   byte pairs (16 k, as the 8-bit strategy) of the
//                 activation's pack and sums per step.
//   unroll = 4    byte steps per iteration (8 k steps); the nibble loop
//                 inside unrolled whole.
//   prefetch 1    the next group's weight tile.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_f32_prepack_factor_and_tile(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %k_block: !transform.param<i64> {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_byte_steps_and_nibbles(%partials: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_f32(%kernel: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %k_block = transform.param.constant 8 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %m_tile, %n_tile = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 8, 64, 0, 0, 0] balance_dims = []
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %kernel, %partials_in_block = transform.include @prefill_f32_prepack_factor_and_tile failures(propagate)
        (%module, %packed, %k_block, %m_tile, %n_tile) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
        !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %byte_loop = transform.include @tile_byte_steps_and_nibbles failures(propagate) (%partials_in_block)
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %byte_loop {factor = 4} : !transform.any_op
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_broadcasts failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 1, line_bytes = 64, min_read_bytes = 64}
      : !transform.any_op
    transform.yield
  }
}
