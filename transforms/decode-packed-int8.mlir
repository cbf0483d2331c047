// Decode (M = 1) with int8 activations on 8-bit weights packed once by
// <f>_pack_weights (docs/abi.md) for vpdpbusd: weights N/32 x G x K/4 x 32 x 4
// (two 64-byte lines of 16 rows x 4 bytes of k, each one vpdpbusd operand, as
// the int8 prefill packs), scales and zero-points N/32 x G x 1 x 32 x 1, N and
// K padded with zeros; the activation quantized per group (opt-in,
// docs/numerics.md). One row of the table (family decode-packed-int8): the
// numbers are written here.
//   32 rows, k by 4  two 512-bit vpdpbusd's lanes and the bytes a lane sums;
//                    each activation word broadcast once for both
//   unroll 32        the group's k steps (up to 128 k), its vpdpbusd chain
//                    split in 4 independent sums
//   prefetch         one group ahead (@prefetch_next_group_int8)
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
