// prefill-packed-avx512.mlir's steps (6 tokens x 64 rows) for Intel AVX-512
// cores where prefill-packed-avx512-intel.mlir's 32 rows do not fit: a
// static M below 6 (fewer tokens on 32 rows leave too few accumulators for
// the FMA latency) and a dynamic M (its chunks read the 64-row tiles its
// M = 1 decode packs). There the weights' widening and conversion share
// the two FMA ports, so from 8 blocks of tokens on a row tile's weights of
// a group are converted to f32 once, before its blocks, as in the 32-row
// script; fewer blocks convert in the loop, as the generic script does.
//
// What sets the numbers:
//   6 tokens x 64 rows  as prefill-packed-avx512.mlir, but the token tile
//                 balanced with a cost of 1 per tile (tile_overhead):
//                 tiles of t tokens cost t + 1 each, so a chunk of 32 takes
//                 8 tiles of 4 (32 rows, 8 blocks: the weights converted
//                 once), not 6 of 6 (36 rows, each weight converted 6
//                 times); 128 keeps 22 of 6, M < 6 one tile.
//   8 blocks      as prefill-packed-avx512-intel.mlir.
//   token tile 8, 2, 4, 6  the dynamic M's chunks: as
//                 prefill-packed-avx512.mlir.
//   pad_nearly_full_chunks  rows left that fill a chunk of 32 (128) to
//                 within 4 (7) rows go padded into it, one call: the
//                 chunk's tiles of 4 then pad nothing more (docs/scripts.md).
// A dynamic M on an Intel Xeon, 4096 x 4096 (docs/benchmarks.md): chunks of
// 32 8.7-9.0 -> 7.8-7.9 ms, of 128 32.9-33.6 -> 29.7-30.0 ms.
module attributes {transform.with_named_sequence, qforge.token_tile = 8 : i64, qforge.rows_left_chunks = array<i64: 2, 4, 6>, qforge.pad_nearly_full_chunks} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_f32_converting_weights_ahead(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 6, 64, 0, 0] balance_dims = [1] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // The f32 prefill's tiles; with 8 or more blocks of tokens each row
    // tile's group of weights converted once for all of them, since here
    // the conversions take the FMAs' ports.
    transform.include @prefill_packed_f32_converting_weights_ahead failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
