// Integer decode strategy (batch-1 group-quantized matvec) for AVX2 CPUs
// with AVX-VNNI and no AVX512-VNNI (e.g. Alder Lake, Meteor Lake):
// decode-int8-vnni.mlir with 256-bit vectors. The activation is quantized
// per group to int8 once per call, and the weights meet it in the
// VEX-encoded `vpdpbusd` (32 unsigned weight bytes x 32 signed activation
// bytes -> 8 i32 lanes, one instruction). See that script and
// docs/scripts.md for each step.
//
// Accuracy: as decode-int8-vnni.mlir (the same int8 rounding of the
// activation, ~3e-3 of the result's magnitude): verify with
// --tolerance=1e-2.
//
// What sets the numbers:
//   lanes = 8        i32 lanes of one 256-bit vpdpbusd; each lane sums 4
//                    adjacent bytes, so one step covers 32 weights. The group
//                    size must be a multiple of 32.
//   unroll = K/32    the j loop (K/32 steps of a group) is unrolled whole: 4
//                    for K = 128. Edit it together with lanes.
//   rows per tile 1  as in decode-factored-avx2.mlir (one weight stream per
//                    tile; the rows are the threads' parallel loop).
module attributes {transform.with_named_sequence} {

  // Step 1: quantize the activation per group and rewrite dequant +
  // contraction into the integer factored form, k = (j, l, q): 8 lanes of
  // 4 bytes.
  transform.named_sequence @factor(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) {
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 8}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %quantization, %sums, %partials, %groups, %rows
      : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
  }

  // Step 2, once per call: the activation's per-group maximum and its int8
  // quantization, one group (128 values) at a time; then xs[g, l] =
  // Σ_j Σ_q xq[g, j, l, q], one group and one 32-byte step at a time.
  transform.named_sequence @quantize_activation(
      %quantization: !transform.any_op {transform.readonly},
      %sums: !transform.any_op {transform.consumed}) {
    %max, %quantized = transform.split_handle %quantization
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_tiled, %max_loop = transform.structured.tile_using_for %max tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %q_tiled, %q_loop = transform.structured.tile_using_for %quantized tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tiled, %per_group, %per_step = transform.structured.tile_using_for %sums
        tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %per_step {factor = 4} : !transform.any_op
    transform.yield
  }

  // Step 3: one output row per iteration, everything that row needs fused
  // into it -- across the transposed map: the weights are indexed (n, g, j, l)
  // by the partial sums, so the row tile of the result is the *outer* dim of
  // the weights -- then one group per iteration inside the row, with the
  // 8-lane accumulator carried across groups.
  transform.named_sequence @tile_rows_and_groups(
      %partials: !transform.any_op {transform.consumed},
      %groups: !transform.any_op {transform.consumed},
      %rows: !transform.any_op {transform.consumed}) {
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    // One output row per iteration of an scf.forall, which the fixed
    // lowering turns into an OpenMP parallel loop: the static schedule gives
    // each thread a contiguous range of rows, so every thread streams its
    // own part of the weights, and each row is computed by one thread in a
    // fixed order -- results do not depend on the thread count.
    %row, %row_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Named so that @qforge_after_bufferization can find it again.
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %groups_in_row, %l1 = transform.structured.fuse_into_containing_op %groups into %row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %gf_in_row, %l2 = transform.structured.fuse_into_containing_op %groups_fill into %l1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_row, %l3 = transform.structured.fuse_into_containing_op %partials into %l2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_row, %l4 = transform.structured.fuse_into_containing_op %partials_fill into %l3
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %group, %group_loop = transform.structured.tile_using_for %groups_in_row tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_group, %g1 = transform.structured.fuse_into_containing_op %partials_in_row into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_group, %g2 = transform.structured.fuse_into_containing_op %pf_in_row into %g1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // One 32-byte step (8 lanes x 4 bytes) per iteration, unrolled: each
    // step becomes one vpdpbusd.
    %chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %chunk_loop {factor = 4} : !transform.any_op
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
    // The byte-product reductions stay until after bufferization (step 5):
    // the vpdpbusd they become is an LLVM intrinsic call, which
    // bufferization's analysis does not accept.
    transform.yield
  }

  // Step 5, run by the driver after bufferization: the int8 dot products
  // (see step 4) and, while one weight row is converted and multiplied, a
  // prefetch of the next one (one per 64-byte line), as in
  // decode-int8-vnni.mlir, whose measurements set it; not re-measured for
  // this 256-bit loop.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    // locality = 2 (prefetcht1, into L2), as decode-int8-vnni.mlir: measured
    // there, for the 512-bit loop.
    transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64, locality = 2} : !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    // u8 x s8 products summed 4 per i32 lane: one vpdpbusd each; then the
    // remaining reductions (one 8-lane f32 sum per row) as in step 4 of the
    // float strategy.
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %quantization, %sums, %partials, %groups, %rows = transform.include @factor failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @quantize_activation failures(propagate) (%quantization, %sums)
      : (!transform.any_op, !transform.any_op) -> ()
    transform.include @tile_rows_and_groups failures(propagate) (%partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.include @vectorize failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
