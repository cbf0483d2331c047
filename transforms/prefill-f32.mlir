// Prefill (M > 1, or a dynamic M's chunks) with f32 activations: weights
// packed once (<f>_pack_weights, docs/abi.md), micro-kernels of pack_tokens
// tokens x pack_rows rows, the token tile balanced to M. The row's numbers
// (strategy-table.json, family prefill-f32):
//   pack_tokens, pack_rows  12 x 32 (Intel from M = 6), 6 x 64, 6 x 16 (AVX2)
//   tile_overhead  1: token tiles that minimize tiles x (tile + 1)
//   convert_ahead  1: a row tile's weights of a group converted once, ahead
//                  of its blocks of tokens (from 8 blocks; Intel)
// Steps: lib/packed.mlir, lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @pack_prefill(%contraction: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %overhead: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
  transform.named_sequence @prefill_packed_f32_choosing(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %ahead: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %pack_tokens = transform.qforge.strategy_param "pack_tokens" in %module : (!transform.any_op) -> !transform.param<i64>
    %pack_rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    %overhead = transform.qforge.strategy_param "tile_overhead" in %module : (!transform.any_op) -> !transform.param<i64>
    %ahead = transform.qforge.strategy_param "convert_ahead" in %module : (!transform.any_op) -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.include @pack_prefill failures(propagate) (%contraction, %pack_tokens, %pack_rows, %overhead)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_f32_choosing failures(propagate) (%module, %packed, %tokens, %rows, %ahead)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
