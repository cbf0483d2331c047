// Packed prefill strategy (batched group-quantized matmul) for AVX-512 CPUs:
// M tokens against the same weights, compute-bound, so each weight tile is
// converted once per block of tokens held in registers. Contraction dims
// (1, m, n, g, k); @f_pack_weights as in decode-packed-avx512.mlir
// (docs/abi.md); per call the activation packed 1 x M/6 x G x K x 6 and the
// result 1 x M/6 x N/64 x 6 x 64 unpacked, M and N padded with zeros. Loops
// per 64-row tile: groups, blocks of 6 tokens, k. Steps: lib/packed.mlir,
// docs/scripts.md.
//
// What sets the numbers:
//   6 tokens x 64 rows  the pack and the result's unpack tiles: per k step
//                 4 conversions, then 6 x 4 FMAs into 24 zmm accumulators,
//                 beside the 4 converted weight vectors and a broadcast
//                 (8 tokens, 32 accumulators, made LLVM spill some every
//                 k step: M = 128 went from 0.63 to 0.86 of the f32 peak,
//                 docs/benchmarks.md); fewer tokens when M needs fewer
//                 (pack_balanced: M = 2 -> 2, M = 8 -> 2 tiles of 4,
//                 M = 17 -> 3 tiles of 6). qforge.token_tile stays 8: the
//                 dynamic token count's chunks are whole multiples of it,
//                 each balanced like any M. The rows they leave go into
//                 chunks of 2, 4 or 6 (qforge.rows_left_chunks; 6: one
//                 tile, where the chunk of 8 takes two tiles of 4 that
//                 convert each weight twice; docs/scripts.md).
//   k block 16, unroll 8  as every target: @prefill_packed_f32's.
//   prefetch 1    the next group's weight tile.
module attributes {transform.with_named_sequence, qforge.token_tile = 8 : i64, qforge.rows_left_chunks = array<i64: 2, 4, 6>} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 6, 64, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_f32 failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
