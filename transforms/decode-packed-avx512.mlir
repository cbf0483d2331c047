// Packed decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs:
// data tiling of the seed kernel, the IREE issue's plan done end to end.
//
// Input: the seed form, weights NxGxK (int), scales and zero-points NxGx1
// read through (d0, d1, 0), activation 1x1xGxK, result 1x1xN (f32); the
// contraction's dims are (1, 1, n, g, k).
// Output: two public functions (docs/abi.md):
//   @f_pack_weights  packs weights, scales and zero-points, once per model;
//   @f               the per-call kernel, on the packed parameters.
//
// Packed layout: the rows tiled by `rows`, the tile innermost:
//   weights  N/rows x G x K x rows     one tile = one group of `rows` rows,
//            k-major: each k is `rows` consecutive bytes, one per row
//   scales   N/rows x G x 1 x rows     read through (d0, d1, 0, d3): one
//   zps                                value per (row, group), in the
//                                      weights' tile order
// The whole kernel reads one sequential stream. N that is not a multiple of
// `rows` is padded with zero weights, scales and zero-points (zero rows, cut
// by the unpack of the result). Groups and k are not tiled: a group's k
// never needs padding, whatever the group size.
//
// What sets the numbers:
//   rows = 64     the lanes: 4 zmm registers of 16 f32 per k step. Each k
//                 step is 64 bytes of weights (one cache line), converted
//                 and multiplied by one broadcast activation value into 4
//                 independent accumulators -- enough FMAs in flight to hide
//                 their latency (4 cycles) behind the conversions. AVX2 would
//                 take 32 (4 ymm).
//   tiles = 4     row tiles per forall iteration (or the largest count
//                 below that divides the tiles: 3, 2, 1), their k steps
//                 interleaved: each k step reads a line from each tile, four
//                 streams 256 KiB apart (for the seed), which keep more
//                 reads from DRAM in flight than fewer streams at the same
//                 rate. Two tiles gave 0.89-0.90 of the read bandwidth
//                 against 0.83-0.85 with one; four tiles, prefetched 2 KiB
//                 ahead (below), are 3-5% faster than two prefetched a group
//                 ahead (in-process alternation, docs/benchmarks.md). One
//                 tile after the other per group (one stream at a time) gave
//                 0.80-0.84.
//   unroll = 8    k steps per iteration of the k loop (8 x 64 bytes from
//                 each tile).
//   prefetch 4    iterations of the k loop ahead: 4 x 8 x 64 bytes = 2 KiB
//                 per tile, 8 KiB in all, which stays in L1 (48 KiB). A
//                 group ahead (8 KiB per tile, 32 KiB in all) was 10-15%
//                 slower with four tiles: the prefetched lines no longer
//                 fit L1 next to what is being read.
module attributes {transform.with_named_sequence} {

  // Step 1: pack the contraction's rows (n) by `rows`; the weights' pack
  // then moves up through the dequant to the quantized parameters, the scale
  // and zero-point keeping their unit dim. Non-dividing tiles pad with zeros,
  // never poison: zero weights, scales and zero-points dequantize to zero.
  transform.named_sequence @pack(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 64, 0, 0]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield %packed : !transform.any_op
  }

  // Step 2: the packs of weights, scales and zero-points read only model
  // parameters: they run once, in @f_pack_weights, not on every call.
  transform.named_sequence @prepack_parameters(%packed: !transform.any_op {transform.readonly}) {
    %packed_dequant = transform.get_producer_of_operand %packed[1]
      : (!transform.any_op) -> !transform.any_op
    %pack_functions = transform.qforge.split_parameter_packing %packed_dequant
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // Step 3: scale and zero-point out of the k sum, per group:
  //   xs[g] = Σ_k x[g, k], once per call;
  //   p[rows, g, lanes] = Σ_k x[g, k] · w[rows, g, k, lanes];
  //   out[rows, lanes] += Σ_g s · (p − z · xs).
  // The generics keep the packed dims, lanes innermost: no unit dim is
  // folded, so even N <= rows (a single row tile) tiles the same way.
  transform.named_sequence @factor(%kernel: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // Step 4: four row tiles per iteration of an scf.forall (OpenMP; each
  // thread streams a contiguous range of row tiles; 3, 2 or 1 when 4 does
  // not divide the tile count), one group per iteration inside it, the group's partial
  // sums fused into it, and its k steps one at a time, each tile's inside
  // each k step (each: 64 bytes, 4 vectors), unrolled: the four tiles'
  // lines alternate. Dims of the group sums: (n/rows, g, 1, 1,
  // rows); of the partial sums: (n/rows, g, k, 1, 1, rows) -- the
  // activation's unit dims just before the lanes.
  transform.named_sequence @tile(%partials: !transform.any_op {transform.consumed},
                                 %groups: !transform.any_op {transform.consumed}) {
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    // 4 row tiles per iteration, or the largest count that divides the
    // tiles (3, 2 or 1): a partial iteration would give every iteration
    // dynamic shapes, and the partial sums could not stay in registers.
    %tiles_per_iteration = transform.qforge.dividing_tile_size %groups {dim = 0, at_most = 4, at_least = 1}
      : (!transform.any_op) -> !transform.param<i64>
    %row_tile, %row_loop = transform.structured.tile_using_forall %groups tile_sizes [%tiles_per_iteration]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    // Named so that @qforge_after_bufferization can find the loops again.
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %partials_in_row, %l1 = transform.structured.fuse_into_containing_op %partials into %row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_row, %l2 = transform.structured.fuse_into_containing_op %partials_fill into %l1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %gf_in_row, %l3 = transform.structured.fuse_into_containing_op %groups_fill into %l2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %group_tile, %group_loop = transform.structured.tile_using_for %row_tile tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_group, %g1 = transform.structured.fuse_into_containing_op %partials_in_row into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_group, %g2 = transform.structured.fuse_into_containing_op %pf_in_row into %g1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k_step, %k_loop, %tile_loop = transform.structured.tile_using_for %partials_in_group
        tile_sizes [1, 0, 1] interchange = [2, 1, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // Unrolled whole, whatever the tile count: unrolling by 4 a loop of 3
    // or 2 iterations leaves them in a remainder loop, which the next
    // unrolls take.
    transform.annotate %tile_loop "qforge.weight_tiles" : !transform.any_op
    transform.loop.unroll %tile_loop {factor = 4} : !transform.any_op
    %tile_rest_3 = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_tiles} in %k_loop
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %tile_rest_3 {factor = 3} : !transform.any_op
    %tile_rest_2 = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_tiles} in %k_loop
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %tile_rest_2 {factor = 2} : !transform.any_op
    transform.annotate %k_loop "qforge.weight_k" : !transform.any_op
    transform.loop.unroll %k_loop {factor = 8} : !transform.any_op
    transform.yield
  }

  // Step 5: vectorize. Each k step: load 64 bytes, convert to 4 x 16 f32,
  // multiply-add by the broadcast activation value into 4 accumulators (the
  // group's partial sums), which stay in registers across the k loop; the
  // row tile's 4 result vectors stay in registers across the group loop
  // (both hoisted out of the loops' tensors). The per-group activation sums are the only
  // reductions across lanes: 32 per call, reduced as trees.
  transform.named_sequence @vectorize(%kernel: !transform.any_op {transform.consumed}) {
    transform.apply_patterns to %kernel {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %kernel : !transform.any_op
    %vectorized = transform.structured.vectorize_children_and_apply_patterns %kernel
        {disable_multi_reduction_to_contract_patterns}
      : (!transform.any_op) -> !transform.any_op
    // Each tile's read of the partial sums went through the writes of the
    // tiles before it (unrolling); reading past them lets every tile's sums be
    // hoisted below.
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.read_past_disjoint_writes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %vectorized : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %vectorized
      : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %loops : !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    // The hoisted sums are written to the partials tensor after the k loop,
    // over its zero fill, and read back by the group epilogue: forwarded
    // instead, the tensor (a heap buffer per group) goes.
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.read_past_disjoint_writes
      transform.apply_patterns.qforge.fold_broadcast_transpose
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }

  // Step 6, run by the driver after bufferization: while the k loop
  // converts and multiplies, ask for the lines it will read 4 iterations
  // (2 KiB per tile) later, one prefetch per 64-byte line; near the end of
  // a group, the first lines of the next group (into_parent_loop: the group
  // loop is the k loop's parent). The hardware prefetcher alone left the
  // seed kernel at ~0.65 of the read bandwidth. The scalar activation reads
  // (4 bytes, in L1) get none (min_read_bytes = 64): one fewer instruction
  // per k step, ~10% less time hot.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %k_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_k} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %k_loop {iterations = 4, line_bytes = 64, min_read_bytes = 64, into_parent_loop}
      : !transform.any_op
    transform.yield
  }

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %packed = transform.include @pack failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.include @prepack_parameters failures(propagate) (%packed) : (!transform.any_op) -> ()
    %kernel = transform.get_parent_op %packed {op_name = "func.func"}
      : (!transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @factor failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @tile failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> ()
    transform.include @vectorize failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }
}
