// Packed prefill strategy for 4-bit weights on AVX2 + FMA CPUs without
// AVX-512: prefill-packed-int4-avx512.mlir with the 6 tokens x 16 rows
// register tile of prefill-packed-avx2.mlir. @f_pack_weights packs as
// decode-packed-int4-avx2.mlir (weights N/16 x G x K/2 x 16); per call the
// activation is packed 1 x M/6 x G x K/2 x 2 x 6. Steps: lib/packed.mlir.
//
// What sets the numbers:
//   6 tokens x 16 rows  as in prefill-packed-avx2.mlir: 12 ymm accumulators
//                 (qforge.token_tile), balanced to M (pack_balanced).
//   prefetch 1    as prefill-packed-int4-avx512.mlir.
module attributes {transform.with_named_sequence, qforge.token_tile = 6 : i64} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 6, 16, 0, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_int4_f32 failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
