// Packed decode strategy for AVX2 + FMA CPUs without AVX-512:
// decode-packed-avx512.mlir with 16-row tiles (two 8-lane ymm per k step):
// weights N/16 x G x K x 16, scales and zero-points N/16 x G x 1 x 16 --
// the layout prefill-packed-avx2.mlir reads, so one packing serves both
// (and both paths of a dynamic token count). Steps: lib/packed.mlir.
//
// What sets the numbers:
//   rows = 16     the lanes: 2 ymm of 8 f32 per k step (16 weight bytes);
//                 4 tiles interleaved give 8 accumulators of 16.
//   unroll = 8    k steps per iteration of the k loop.
//   prefetch 4    k-loop iterations ahead, into the next group near a
//                 group's end, for reads of a tile's 16 bytes.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prepack_and_factor_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_up_to_4_row_tiles_interleaved(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_interleaved_tiles(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 0]
      : (!transform.any_op) -> !transform.any_op
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k_loop = transform.include @tile_up_to_4_row_tiles_interleaved failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %k_loop {factor = 8} : !transform.any_op
    // The result's unpack (left when 16 does not divide N) a row tile at a
    // time: vectorized whole, it is one N-lane vector.
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    %unpack_tile, %unpack_loop = transform.structured.tile_using_for %unpack tile_sizes [0, 0, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @vectorize_interleaved_tiles failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %k_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_k} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %k_loop {iterations = 4, line_bytes = 64, min_read_bytes = 16, into_parent_loop}
      : !transform.any_op
    transform.yield
  }
}
