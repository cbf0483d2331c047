// Decode (M = 1) with f32 activations on weights, scales and zero-points
// packed once by <f>_pack_weights (docs/abi.md) in tiles of pack_rows rows:
// the rows are the lanes (64: four zmm, 16: two ymm). The row's numbers:
// strategy-table.json, family decode-packed-f32. Steps: lib/packed.mlir,
// lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_k_steps_into_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.include @decode_packed_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.include @prefetch_k_steps_into_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
