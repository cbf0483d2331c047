// prefill-packed-int4-avx512.mlir's steps (5 tokens x 64 rows) with each
// nibble's f32 value looked up in a vpermps table, for Intel AVX-512 cores
// where prefill-packed-int4-avx512-intel.mlir's 32 rows do not fit: a
// static M below 6 (fewer tokens on 32 rows leave too few accumulators for
// the FMA latency) and a dynamic M (its chunks read the 64-row tiles its
// M = 1 decode packs). There the conversions share the two FMA ports: the
// tables take 16 ops per 128 nibbles where the generic extraction takes 24
// (M = 2-5: 6-17% faster on an Intel Xeon, docs/benchmarks.md), and from 8
// blocks of tokens on a row tile's nibbles of a group are converted to f32
// once, before its blocks, as in the 32-row script.
//
// What sets the numbers:
//   5 tokens x 64 rows  as prefill-packed-int4-avx512.mlir, but the token
//                 tile balanced with a cost of 1 per tile (tile_overhead):
//                 a chunk of 32 takes 8 tiles of 4 (8 blocks: the nibbles
//                 converted once), not 7 of 5 (35 rows, converted 7
//                 times); 128 keeps 26 of 5, M < 6 one tile.
//   k block 8, unroll 4  byte pairs, byte steps: @prefill_packed_int4_f32's.
//   8 blocks      as prefill-packed-int4-avx512-intel.mlir.
//   prefetch 1    the next group's weight tile.
//   2, 4, 5       a dynamic M's chunks for the rows left after its chunks
//                 of 8 and more (qforge.rows_left_chunks; 5: one tile
//                 where 8 takes two; docs/scripts.md).
//   pad_nearly_full_chunks  rows left that fill a chunk of 32 (128) to
//                 within 4 (7) rows go padded into it, one call.
//   tables        after bufferization (@x86_nibble_tables). Not on Zen,
//                 where these tiles then spill (the generic script's
//                 header).
// A dynamic M on an Intel Xeon, 4096 x 4096 (docs/benchmarks.md): chunks of
// 32 8.4-8.5 -> 6.8-7.0 ms, of 128 32.3-33.3 -> 26.8-28.8 ms.
module attributes {transform.with_named_sequence, qforge.rows_left_chunks = array<i64: 2, 4, 5>, qforge.pad_nearly_full_chunks} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_int4_f32_converting_weights_ahead(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 5, 64, 0, 0, 0] balance_dims = [1] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_int4_f32_converting_weights_ahead failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  // The next group's prefetch, then the tables: one vpermps per 16
  // nibbles on the byte widened once for both of its nibbles.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @x86_nibble_tables failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
