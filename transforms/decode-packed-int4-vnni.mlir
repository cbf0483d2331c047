// Packed integer decode strategy for 4-bit weights on AVX-512 VNNI CPUs:
// decode-packed-int8-vnni.mlir on weights stored two per byte (dims
// (1, 1, n, g, k/2, k%2)), int8 activations (--int8-activations). Packed:
// weights N/16 x G x K/8 x 16 x 4 bytes (a 64-byte line = 16 rows x 4 byte
// pairs: low nibbles one vpdpbusd operand, high nibbles another), the
// activation alike per call (G x K/8 x 2 x 4 bytes); N and K padded with
// zeros. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers:
//   rows = 16      the lanes of one 512-bit vpdpbusd (16 x i32).
//   pair tile = 4  the bytes one i32 lane sums, per nibble.
//   4 tiles        of the activation's pack per step (32 k), in registers.
//   unroll 32      byte steps (64-byte lines): the whole group, up to 256 k
//                  (the largest divisor of its byte steps up to 32), the
//                  nibble loop inside unrolled whole, so that the group's
//                  chain of vpdpbusd is split in 4 independent sums
//                  (@vectorize_packed_int8) without a loop-carried one.
//   prefetch 4     groups ahead (see docs/benchmarks.md).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @bubble_and_prepack(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @tile_in_k_blocks(%op: !transform.any_op {transform.consumed}, %k_block: !transform.param<i64> {transform.readonly})
  transform.named_sequence @quantize_and_factor_packed_decode(%kernel: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_row_tiles_and_fold(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_int8_decode_byte_steps(%kernel: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %activation_tiles = transform.param.constant 4 : i64 -> !transform.param<i64>
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4, 0]
      : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %activation_pack = transform.get_producer_of_operand %packed[0] : (!transform.any_op) -> !transform.any_op
    transform.include @tile_in_k_blocks failures(propagate) (%activation_pack, %activation_tiles)
      : (!transform.any_op, !transform.param<i64>) -> ()
    // The result's unpack (16 does not divide N: padded rows cut) one row
    // tile at a time: vectorized whole, it is one N-wide vector the
    // lowering takes over a minute on (N = 4100).
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %unpack : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %byte_loop = transform.include @tile_int8_decode_byte_steps failures(propagate) (%folded)
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.unroll_dividing %byte_loop {at_most = 32} : !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
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
