// Packed decode strategy for 4-bit weights on AVX-512 CPUs (the driver's
// choice for i4 weights): decode-packed-avx512.mlir on weights stored two
// per byte (qforge-store-int4-as-byte-pairs, docs/abi.md: contraction dims
// (1, 1, n, g, k/2, k%2)). Packed: weights N/64 x G x K/2 x 64 bytes,
// scales and zero-points N/64 x G x 1 x 64. Steps: lib/packed.mlir,
// docs/scripts.md. Compute-bound below the read bandwidth (8 extensions and
// 8 conversions per line): decode-packed-int4-vnni.mlir is the fast one.
//
// What sets the numbers:
//   rows = 64     the lanes, as for 8-bit weights: a byte step is one
//                 64-byte line, two k steps of 4 zmm vectors (low nibbles,
//                 then high ones) into the same 4 accumulators.
//   unroll = 4    byte steps per iteration (8 k steps, as the 8-bit
//                 strategy's 8); the nibble loop inside unrolled whole.
//   prefetch 1    one group ahead (rows x K/2 bytes).
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
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 64, 0, 0, 0]
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
    %vectorized = transform.include @vectorize_packed_f32 failures(propagate) (%kernel)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 1, line_bytes = 64, min_read_bytes = 64}
      : !transform.any_op
    transform.yield
  }
}
