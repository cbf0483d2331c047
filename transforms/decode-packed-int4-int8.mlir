// Decode (M = 1) with int8 activations on 4-bit weights (byte pairs,
// docs/abi.md) packed once by <f>_pack_weights: 32 rows x 4 bytes of byte
// pairs, two 64-byte lines of 16 rows (as the int8 prefill packs); each nibble meets its activation byte in a
// vpdpbusd on the bytes masked to that nibble; the activation quantized per
// group (docs/numerics.md). The table's family decode-packed-int4-int8
// (strategy-table.json) gives one number:
//   byte_unroll 32   byte steps per iteration of the group chunk's byte
//                    loop (32: the whole chunk of up to 32; 2 on AVX2
//                    without VNNI: fewer spills, the next group's
//                    prefetches spread over the group)
// the others are written here (4 k steps of the activation's pack per
// block, the group loop prefetched 4 iterations ahead). Steps:
// lib/packed.mlir (@decode_packed_int4_int8), lib/after-bufferization.mlir.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_int4_int8(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_packed_int4_int8 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // After bufferization: the prefetch, then one vpdpbusd per nibble of a
  // byte step (on the bytes masked to that nibble) and the reductions.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 4, line_bytes = 64, min_read_bytes = 64}
      : !transform.any_op
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
