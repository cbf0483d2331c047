// Packed prefill strategy for 4-bit weights on AVX2 + FMA CPUs without
// AVX-512: prefill-packed-int4-avx512.mlir with the 6 tokens x 16 rows
// register tile of prefill-packed-avx2.mlir. @f_pack_weights packs as
// decode-packed-int4-avx2.mlir (weights N/16 x G x K/2 x 16); per call the
// activation is packed 1 x M/6 x G x K/2 x 2 x 6. Steps: lib/packed.mlir.
//
// What sets the numbers:
//   6 tokens x 16 rows  as in prefill-packed-avx2.mlir: 12 ymm accumulators
//                 (qforge.token_tile), balanced to M (pack_balanced).
//   k block = 8, unroll = 4, prefetch 1: as prefill-packed-int4-avx512.mlir.
module attributes {transform.with_named_sequence, qforge.token_tile = 6 : i64, qforge.rows_by_decode = 3 : i64} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_f32_prepack_factor_and_tile(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %k_block: !transform.param<i64> {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_byte_steps_and_nibbles(%partials: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_f32(%kernel: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %k_block = transform.param.constant 8 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 6, 16, 0, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %kernel, %partials_in_block = transform.include @prefill_f32_prepack_factor_and_tile failures(propagate)
        (%module, %packed, %k_block, %tokens, %rows) : (!transform.any_op, !transform.any_op, !transform.param<i64>,
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
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 1, line_bytes = 64, min_read_bytes = 16}
      : !transform.any_op
    transform.yield
  }
}
