// Prefill (M > 1, or a dynamic M's chunks) with 4-bit weights (byte pairs,
// docs/abi.md) and f32 activations: weights packed once (<f>_pack_weights),
// micro-kernels of pack_tokens tokens x pack_rows rows, the token tile
// balanced to M. The row's numbers (strategy-table.json, prefill-int4-f32):
//   pack_tokens, pack_rows  12 x 32 (Intel from M = 6), 5 x 64, 6 x 16 (AVX2)
//   tile_overhead  1: token tiles that minimize tiles x (tile + 1)
//   convert_ahead  1: a row tile's weights of a group converted once (Intel)
//   nibble_tables  1: each nibble's f32 value looked up in a vpermps table
// Steps: lib/packed.mlir, lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @pack_prefill_int4(%contraction: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %overhead: !transform.param<i64> {transform.readonly}) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
  transform.named_sequence @prefill_packed_int4_f32_choosing(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %ahead: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %pack_tokens = transform.qforge.strategy_param "pack_tokens" in %module : (!transform.any_op) -> !transform.param<i64>
    %pack_rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    %overhead = transform.qforge.strategy_param "tile_overhead" in %module : (!transform.any_op) -> !transform.param<i64>
    %ahead = transform.qforge.strategy_param "convert_ahead" in %module : (!transform.any_op) -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.include @pack_prefill_int4 failures(propagate) (%contraction, %pack_tokens, %pack_rows, %overhead)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.include @prefill_packed_int4_f32_choosing failures(propagate) (%module, %packed, %tokens, %rows, %ahead)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    %tables = transform.qforge.strategy_param "nibble_tables" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.tune.alternatives<"nibble_tables"> selected_region = %tables : !transform.param<i64> {
    }, {
      transform.include @x86_nibble_tables failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.yield
  }
}
