// Packed prefill strategy for 4-bit weights on AVX-512 CPUs:
// prefill-packed-avx512.mlir on weights stored two per byte (contraction
// dims (1, m, n, g, k/2, k%2)). Packed: weights N/64 x G x K/2 x 64 (a
// 64-byte line per byte step = two k steps); per call the activation
// 1 x M/5 x G x K/2 x 2 x 5. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers:
//   5 tokens x 64 rows  the pack and the unpack tiles: 5 x 4 accumulators
//                 beside the nibble extraction's registers (8 or 6 tokens
//                 made LLVM spill accumulators every k step: M = 128 went
//                 from 0.54 to 0.81 of the f32 peak, docs/benchmarks.md);
//                 fewer tokens when M needs fewer (pack_balanced).
//   k block 8, unroll 4  byte pairs, byte steps: @prefill_packed_int4_f32's.
//   prefetch 1    the next group's weight tile.
//   2, 4, 5       a dynamic M's chunks for the rows left after its chunks
//                 of 8 and more (qforge.rows_left_chunks; 5: one tile
//                 where 8 takes two; docs/scripts.md).
module attributes {transform.with_named_sequence, qforge.rows_left_chunks = array<i64: 2, 4, 5>} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 5, 64, 0, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_int4_f32 failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
