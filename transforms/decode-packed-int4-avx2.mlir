// Packed decode strategy for 4-bit weights on AVX2 + FMA CPUs without
// AVX-512: decode-packed-int4-avx512.mlir with 16-row tiles (two 8-lane ymm
// per k step): weights N/16 x G x K/2 x 16 bytes, scales and zero-points
// N/16 x G x 1 x 16 -- the layout prefill-packed-int4-avx2.mlir reads.
// Steps: lib/packed.mlir.
//
// What sets the numbers:
//   rows = 16     the lanes: a byte step is 16 bytes, two k steps of 2 ymm
//                 (low nibbles, then high ones) into the same accumulators.
//   unroll = 4, prefetch 1 group ahead: as the AVX-512 script.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prepack_and_factor_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_one_group_at_a_time(%op: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_row_tiles_and_groups(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_byte_steps_and_nibbles(%partials: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_f32(%kernel: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 0, 0]
      : (!transform.any_op) -> !transform.any_op
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_groups = transform.include @tile_one_group_at_a_time failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    %group, %partials_in_group, %fill_in_group = transform.include @tile_row_tiles_and_groups failures(propagate)
        (%partials, %groups) : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %byte_loop = transform.include @tile_byte_steps_and_nibbles failures(propagate) (%partials_in_group)
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %byte_loop {factor = 4} : !transform.any_op
    // The result's unpack (left when 16 does not divide N) a row tile at a
    // time: vectorized whole, it is one N-lane vector.
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %unpack_tile, %unpack_loop = transform.structured.tile_using_for %unpack tile_sizes [0, 0, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 1, line_bytes = 64, min_read_bytes = 16}
      : !transform.any_op
    transform.yield
  }
}
