// Decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs.
//
// Input: the seed form, weights NxGxK (int), scales and zero-points NxGx1
// read through (d0, d1, 0), activation 1x1xGxK, result 1x1xN (f32).
// Output: one row of weights streamed at a time (a block of groups of it);
// per 16 weights one
// int-to-float convert and one FMA into a 16-lane accumulator; scale and
// zero-point applied once per group; one horizontal sum per output row.
//
// What sets the numbers:
//   lanes = 16       f32 lanes in one 512-bit register (AVX-512). Use 8 on AVX2.
//                    The group size must be a multiple of it.
//   rows per tile 1  one sequential weight stream per tile streams best on
//                    these machines (see docs/scripts.md).
//   at_most = 48     groups per block: the block's activation (48 x K x 4
//                    bytes = 24 KiB for K = 128) stays in L1 (48 KiB) next
//                    to the streamed weights. The block divides the groups
//                    (transform.qforge.dividing_tile_size): the seed's 32
//                    groups are one block; 86 groups (the LLaMA-7B
//                    down-projection) are two blocks of 43, and a row's 44
//                    KiB activation no longer reloads from L2 (0.51-0.60 ->
//                    0.58-0.76 of the read bandwidth, docs/benchmarks.md).
//   unroll = K/lanes the j loop (K/lanes chunks of a group) is unrolled
//                    whole: 8 for K = 128, 4 for K = 64. The script reads it
//                    from no shape: edit it together with lanes.
module attributes {transform.with_named_sequence} {

  // Step 1: rewrite dequant + contraction into the factored form, with
  // k = (j, l) and l = 16 lanes.
  transform.named_sequence @factor(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
    // Named matmuls become generics, and a sub-channel dequantize lowered to
    // NxGxB weights collapsed to NxK (docs/quantization.md) carries its
    // split into the matmul: a contraction over (groups, elements), as in
    // the seed. Nothing changes for kernels already in that form.
    %named = transform.structured.match ops{["linalg.matmul", "linalg.matvec", "linalg.batch_matmul"]} in %module
      : (!transform.any_op) -> !transform.any_op
    %generalized = transform.structured.generalize %named : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.fold_reshapes_by_expansion
    } : !transform.any_op
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The PDLL set shortens the dequant body before it is folded into the
    // partial sums (extui + uitofp -> uitofp).
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 16}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %sums, %partials, %groups, %rows
      : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // Step 2: xs[g, l] = Σ_j x[g, j, l], once per call: one group and one
  // 16-lane chunk at a time so that every reduction is elementwise.
  transform.named_sequence @tile_activation_sums(%sums: !transform.any_op {transform.consumed}) {
    %tiled, %per_group, %per_chunk = transform.structured.tile_using_for %sums
        tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %per_chunk {factor = 8} : !transform.any_op
    transform.yield
  }

  // Step 3: blocks of groups, whose activation stays in L1; in each, one
  // output row per iteration of an scf.forall, everything that row needs
  // fused into it -- across the transposed map: the weights are indexed
  // (n, g, j, l) by the partial sums, so the row tile of the result is the
  // *outer* dim of the weights -- then one group per iteration inside the
  // row, with the row's 16-lane accumulator carried across the groups, and
  // from block to block in the accumulator tensor (N x 64 bytes, in L2).
  transform.named_sequence @tile_rows_and_groups(
      %partials: !transform.any_op {transform.consumed},
      %groups: !transform.any_op {transform.consumed},
      %rows: !transform.any_op {transform.consumed}) {
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    // The accumulators start at zero, one row (16 lanes) at a time; as one
    // vector of N x 16 lanes, LLVM would be handed a vector it cannot lower.
    // The fill's dims are the accumulator tensor's: (1, 1, n, l).
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %fill_row, %fill_loop = transform.structured.tile_using_forall %groups_fill tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Blocks of at most 48 groups that divide the groups (no partial block,
    // so every shape below stays static); one block when there are at most
    // 48.
    %block_size = transform.qforge.dividing_tile_size %groups {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    %block, %block_loop = transform.structured.tile_using_for %groups tile_sizes [0, %block_size]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %partials_in_block, %b1 = transform.structured.fuse_into_containing_op %partials into %block_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_block, %b2 = transform.structured.fuse_into_containing_op %partials_fill into %b1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // One output row per iteration of an scf.forall, which the fixed
    // lowering turns into an OpenMP parallel loop (one per block): the
    // static schedule gives each thread a contiguous range of rows, so every
    // thread streams its own part of the weights, and each row is computed
    // by one thread in a fixed order -- results do not depend on the thread
    // count.
    %row, %row_loop = transform.structured.tile_using_forall %block tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Named so that @qforge_after_bufferization can find it again.
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %partials_in_row, %l1 = transform.structured.fuse_into_containing_op %partials_in_block into %row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_row, %l2 = transform.structured.fuse_into_containing_op %pf_in_block into %l1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %group, %group_loop = transform.structured.tile_using_for %row tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_group, %g1 = transform.structured.fuse_into_containing_op %partials_in_row into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_group, %g2 = transform.structured.fuse_into_containing_op %pf_in_row into %g1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The rows' horizontal sums, after the last block: one row per
    // iteration of their own scf.forall.
    %sum_row, %sum_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // One 16-lane chunk per step, unrolled: each step is convert + FMA,
    // no reduction across lanes.
    %chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %chunk_loop {factor = 8} : !transform.any_op
    transform.yield
  }

  // Step 4: vectorize (multiply + reduce, not vector.contract: a contraction
  // whose reduced dim lies outside the lanes lowers to shuffles), keep the
  // row accumulator in registers across groups, and lower the reductions:
  // only the per-row horizontal sums remain, reassociated into a tree.
  transform.named_sequence @vectorize(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    %vectorized = transform.structured.vectorize_children_and_apply_patterns %func
        {disable_multi_reduction_to_contract_patterns}
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %vectorized : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %vectorized
      : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %loops : !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.fold_broadcast_transpose
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // One set at a time: together, the permutation patterns, the shape_cast
    // lowering and canonicalization can rewrite each other's output without
    // end on n-D vectors (e.g. a batch of activation rows).
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // The per-row 16-lane sums: a shuffle tree instead of 16 dependent adds.
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }

  // Step 5, run by the driver after bufferization: while one row's block
  // of weights is converted and multiplied, ask for the next row's. One row
  // ahead (4 KiB for the seed: 32 groups x 128 bytes) keeps enough lines in
  // flight: the f32 seed kernel went from ~0.50 of the read bandwidth
  // (hardware prefetcher alone) to 0.77-0.84 (docs/benchmarks.md); one
  // prefetch per 64-byte line.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64} : !transform.any_op
    transform.yield
  }

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %sums, %partials, %groups, %rows = transform.include @factor failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @tile_activation_sums failures(propagate) (%sums) : (!transform.any_op) -> ()
    transform.include @tile_rows_and_groups failures(propagate) (%partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.include @vectorize failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
