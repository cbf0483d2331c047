// Decode (M = 1) with int8 activations on 8-bit weights packed once by
// <f>_pack_weights (docs/abi.md) for vpdpbusd: weights N/32 x G x K/4 x 32 x 4
// (two 64-byte lines of 16 rows x 4 bytes of k, each one vpdpbusd operand, as
// the int8 prefill packs), scales and zero-points N/32 x G x 1 x 32 x 1, N and
// K padded with zeros; the activation quantized per group (opt-in,
// docs/numerics.md). The packing is fixed (32 rows, k by 4: the int8
// prefill's, so that a dynamic M packs once for both); the row's numbers
// (strategy-table.json, family decode-packed-int8) shape the loop:
//   line_rows 16     rows per line, one vpdpbusd operand: 16 = two 512-bit
//                    lines per k step; 8 = four 256-bit ones (AVX2: a split
//                    512-bit line kept a vperm2i128 + vpblendd each), each
//                    activation word broadcast once for all
//   k_unroll 32      k steps per iteration of the group's k loop (32: the
//                    whole group of up to 128 k, one loop per group; 4 on
//                    AVX2 spreads the next group's prefetches), its
//                    vpdpbusd chain split in 4 independent sums
//   prefetch_min_read_bytes 64  reads of at least this many bytes get the
//                    prefetch one group ahead (@prefetch_next_group_int8);
//                    32 for 256-bit lines
// Steps: lib/packed.mlir (@decode_packed_int8), lib/after-bufferization.mlir.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_int8(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_packed_int8 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // After bufferization: the prefetch, then one vpdpbusd per k step and the
  // remaining reductions.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "prefetch_min_read_bytes" in %module default 64
      : (!transform.any_op) -> !transform.param<i64>
    %func = transform.include @prefetch_next_group_int8 failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}
