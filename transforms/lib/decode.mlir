// Script library: the unpacked decode strategies (batch-1 matvec on the
// seed's layout): decode-factored-avx512/-avx2 (f32) and
// decode-int8-vnni/-avxvnni (activation quantized to int8). Each factors
// the scale and zero-point out of the k sum with k split as (j, l), l the
// vector lanes, and streams one weight row per iteration of an scf.forall.
//
// The lane count fixes the unroll factors (K/lanes steps of a group,
// unrolled whole, K = 128 assumed); both are attributes, so the sequences
// are specialised per lane count, the number in their name.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_one_group_per_iteration(%row: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}) -> !transform.any_op

  // Named matmuls become generics, and a sub-channel dequantize lowered to
  // NxGxB weights collapsed to NxK (docs/quantization.md) carries its split
  // into the matmul: a contraction over (groups, elements), as in the seed.
  // Nothing changes for kernels already in that form. Then the pair is
  // found and its dequant body shortened.
  transform.named_sequence @generalize_and_match_dequant(%module: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %named = transform.structured.match ops{["linalg.matmul", "linalg.matvec", "linalg.batch_matmul"]} in %module
      : (!transform.any_op) -> !transform.any_op
    %generalized = transform.structured.generalize %named : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.fold_reshapes_by_expansion
    } : !transform.any_op
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %dequant, %contraction : !transform.any_op, !transform.any_op
  }

  // xs[g, l] = Σ_j x[g, j, l], once per call: one group and one chunk of
  // lanes at a time, so that every reduction is elementwise. Returns the
  // chunk loop (j), for the caller to unroll.
  transform.named_sequence @tile_activation_sums_per_chunk(%sums: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %tiled, %per_group, %per_chunk = transform.structured.tile_using_for %sums
        tile_sizes [1, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %per_chunk : !transform.any_op
  }

  // Integer decode: the activation's per-group maximum and int8
  // quantization one group at a time, then its sums as above.
  transform.named_sequence @quantize_activation_per_group(
      %quantization: !transform.any_op {transform.readonly},
      %sums: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %max, %quantized = transform.split_handle %quantization : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %max_tiled, %max_loop = transform.structured.tile_using_for %max tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %q_tiled, %q_loop = transform.structured.tile_using_for %quantized tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %per_step = transform.include @tile_activation_sums_per_chunk failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    transform.yield %per_step : !transform.any_op
  }

  // f32 decode: blocks of at most 48 groups (48 x 128 x 4 bytes of
  // activation stay in L1; a divisor of the groups, so shapes stay static);
  // in each, one output row per iteration of an scf.forall (the threads:
  // each streams a contiguous range of rows, in a fixed order), tagged
  // qforge.weight_rows, its partial sums fused in across the transposed map;
  // a group per iteration; a chunk of lanes per step (convert + FMA). The
  // accumulators' fill goes a row at a time (whole, LLVM cannot lower it),
  // the rows' sums in their own scf.forall. Returns the chunk loop.
  transform.named_sequence @tile_f32_rows_in_group_blocks(
      %partials: !transform.any_op {transform.consumed},
      %groups: !transform.any_op {transform.consumed},
      %rows: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    // The fill's dims are the accumulator tensor's: (1, 1, n, l).
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %fill_row, %fill_loop = transform.structured.tile_using_forall %groups_fill tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %block_size = transform.qforge.dividing_tile_size %groups {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    %block, %block_loop = transform.structured.tile_using_for %groups tile_sizes [0, %block_size]
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %partials_in_block, %pf_in_block, %b2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials, %partials_fill, %block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %row, %row_loop = transform.structured.tile_using_forall %block tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %partials_in_row, %pf_in_row, %l2 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials_in_block, %pf_in_block, %row_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_group = transform.include @tile_one_group_per_iteration failures(propagate)
        (%row, %partials_in_row, %pf_in_row)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    %sum_row, %sum_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %chunk_loop : !transform.any_op
  }

  // Integer decode, step 3: one output row per iteration of an scf.forall
  // (as above, no blocks), the group sums, the partial sums and their fills
  // fused in, tagged qforge.weight_rows; one group per iteration; one step
  // of lanes x 4 bytes (one vpdpbusd) at a time. Returns the step loop.
  transform.named_sequence @tile_int8_rows_and_groups(
      %partials: !transform.any_op {transform.consumed},
      %groups: !transform.any_op {transform.consumed},
      %rows: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %row, %row_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %groups_in_row, %gf_in_row, %l2 = transform.include @fuse_with_its_fill failures(propagate)
        (%groups, %groups_fill, %row_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_row, %pf_in_row, %l4 = transform.include @fuse_with_its_fill failures(propagate)
        (%partials, %partials_fill, %l2)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %partials_in_group = transform.include @tile_one_group_per_iteration failures(propagate)
        (%groups_in_row, %partials_in_row, %pf_in_row)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    %chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %chunk_loop : !transform.any_op
  }

  // f32 decode with 16 lanes (AVX-512), k = 16·j + l (docs/scripts.md):
  //   p[n, g, l] = Σ_j x[g, j, l] · w[n, g, j, l];  xs[g, l] = Σ_j x[g, j, l];
  //   out[n] = Σ_l Σ_g s[n, g] · (p[n, g, l] − z[n, g] · xs[g, l]),
  // both j loops unrolled by K/16 = 8.
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 16} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_chunks = transform.include @tile_activation_sums_per_chunk failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %sum_chunks {factor = 8} : !transform.any_op
    %chunks = transform.include @tile_f32_rows_in_group_blocks failures(propagate) (%partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %chunks {factor = 8} : !transform.any_op
    transform.yield
  }

  // f32 decode with 8 lanes (one 256-bit register, AVX2): as
  // @decode_f32_16_lanes, the j loops unrolled by K/8 = 16.
  transform.named_sequence @decode_f32_8_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 8} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_chunks = transform.include @tile_activation_sums_per_chunk failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll %sum_chunks {factor = 16} : !transform.any_op
    %chunks = transform.include @tile_f32_rows_in_group_blocks failures(propagate) (%partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %chunks {factor = 16} : !transform.any_op
    transform.yield
  }

  // Integer decode with 16 i32 lanes (one 512-bit vpdpbusd, 64 weights per
  // step): the activation quantized per group to int8, k = (j, l, q), i32
  // sums of u8 x s8 products; both step loops unrolled by K/64 = 2.
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 16} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_steps = transform.include @quantize_activation_per_group failures(propagate) (%quantization, %sums)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %sum_steps {factor = 2} : !transform.any_op
    %steps = transform.include @tile_int8_rows_and_groups failures(propagate) (%partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %steps {factor = 2} : !transform.any_op
    transform.yield
  }

  // Integer decode with 8 i32 lanes (one 256-bit VEX vpdpbusd, AVX-VNNI:
  // 32 weights per step): as @decode_int8_16_lanes, the step loops
  // unrolled by K/32 = 4.
  transform.named_sequence @decode_int8_8_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 8} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %sum_steps = transform.include @quantize_activation_per_group failures(propagate) (%quantization, %sums)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %sum_steps {factor = 4} : !transform.any_op
    %steps = transform.include @tile_int8_rows_and_groups failures(propagate) (%partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %steps {factor = 4} : !transform.any_op
    transform.yield
  }

  // f32 decode: vectorize and hoist, lower the reductions (only the rows'
  // sums remain, as shuffle trees), one pattern set at a time: together
  // they can rewrite each other's output without end on n-D vectors.
  transform.named_sequence @vectorize_f32_decode(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
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
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }

  // Integer decode, step 4: vectorize and hoist; the byte-product
  // reductions stay until after bufferization, where they become vpdpbusd
  // (@x86_int8_dot_products).
  transform.named_sequence @vectorize_int8_decode(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
