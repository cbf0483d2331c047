// Decode (M = 1) with f32 activations on 4-bit weights (byte pairs, docs/abi.md)
// packed once by <f>_pack_weights in tiles of pack_rows rows (the lanes).
// The row's numbers (strategy-table.json, family decode-packed-int4-f32):
//   pack_rows      64 (four zmm) or 16 (two ymm)
//   nibble_tables  1: each nibble's f32 value looked up in a vpermps table
//                  of the 16 values (AVX-512) instead of converted
// Steps: lib/packed.mlir, lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.include @decode_packed_int4_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
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
