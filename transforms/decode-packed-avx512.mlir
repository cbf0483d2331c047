// Packed decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs:
// data tiling, the IREE issue's plan end to end. @f_pack_weights packs the
// weights, scales and zero-points once per model and @f runs on them
// (docs/abi.md): weights N/64 x G x K x 64 (a k step is one 64-byte line,
// a byte per row), scales and zero-points N/64 x G x 1 x 64, N padded with
// zero rows. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers (measured in docs/benchmarks.md):
//   rows = 64     the lanes: 4 zmm of 16 f32 per k step, one 64-byte line,
//                 4 independent accumulators.
//   tiles = 4     row tiles per forall iteration (3, 2 or 1 when 4 does not
//                 divide them), their k steps interleaved: four streams keep
//                 more reads in flight (@tile_up_to_4_row_tiles_interleaved).
//   unroll = 8    k steps per iteration of the k loop.
//   prefetch 4    k-loop iterations ahead (2 KiB per tile, which stays in
//                 L1), into the next group near a group's end; none for the
//                 4-byte activation reads.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prepack_and_factor_f32(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @tile_up_to_4_row_tiles_interleaved(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @vectorize_interleaved_tiles(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 64, 0, 0]
      : (!transform.any_op) -> !transform.any_op
    %kernel, %sums, %partials, %groups = transform.include @prepack_and_factor_f32 failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k_loop = transform.include @tile_up_to_4_row_tiles_interleaved failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %k_loop {factor = 8} : !transform.any_op
    transform.include @vectorize_interleaved_tiles failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %k_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_k} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %k_loop {iterations = 4, line_bytes = 64, min_read_bytes = 64, into_parent_loop}
      : !transform.any_op
    transform.yield
  }
}
