// Packed prefill strategy (batched group-quantized matmul) for AVX2 + FMA
// CPUs without AVX-512: prefill-packed-avx512.mlir with a 6 tokens x 16
// rows register tile. @f_pack_weights packs as decode-packed-avx2.mlir
// (weights N/16 x G x K x 16); per call the activation is packed
// 1 x M/6 x G x K x 6, M and N padded with zeros. Steps: lib/packed.mlir.
//
// What sets the numbers:
//   6 tokens x 16 rows  the pack and the unpack tiles (qforge.token_tile):
//                 per k step 2 conversions, then 6 x 2 FMAs into 12 ymm
//                 accumulators (of 16 registers: 2 weight vectors and a
//                 broadcast left); fewer tokens when M needs fewer
//                 (pack_balanced: M = 2 -> 2, M = 8 -> 2 tiles of 4).
//   prefetch 1    as the AVX-512 script.
module attributes {transform.with_named_sequence, qforge.token_tile = 6 : i64} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 6, 16, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_f32 failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
