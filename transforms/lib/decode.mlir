// Script library: the unpacked decode strategies (batch-1 matvec on the
// seed's layout), f32 (decode-f32.mlir) and int8 activations
// (decode-int8-*): scale and zero-point factored out of the k sum, k split
// as (j, l) with l the vector lanes; one weight row per iteration of an
// scf.forall. The lane count, an attribute of the factoring, fixes the
// unroll factors (K/lanes steps of a group, unrolled whole, K = 128
// assumed), so each strategy is specialised per lane count (in its name).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}, %loop: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_one_group_per_iteration(%row: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @has_two_reduction_dims(%op: !transform.any_op {transform.readonly}) -> !transform.any_op

  // Named matmuls become generics, and a sub-channel dequantize lowered to
  // NxGxB weights collapsed to NxK (docs/quantization.md) carries its split
  // into the matmul, as in the seed (which nothing changes); then the pair
  // is matched (@match_and_simplify_dequant).
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
  // chunk loop (j).
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

  // Two-level decode (decode-two-level-*.mlir): a sub-block parameter's
  // generic (a scale or an offset, over (n, b, hs, cc, h), reading the
  // scale bytes' rows through projected permutations) fused into the rows'
  // loop, then into the super-block loop: a super-block's eight values are
  // decoded as one vector<2x2x2>, once, before its sub-blocks read them
  // (docs/gguf.md).
  transform.named_sequence @decode_per_super_block(%decode: !transform.any_op {transform.consumed},
      %row_loop: !transform.any_op {transform.readonly}, %super_block_loop: !transform.any_op {transform.readonly}) {
    %in_row, %l1 = transform.structured.fuse_into_containing_op %decode into %row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %in_block, %l2 = transform.structured.fuse_into_containing_op %in_row into %super_block_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // Two-level decode: the offsets' sums −o·xs, one weight row per iteration
  // of the rows' scf.forall (%row_loop: the row is read once, while it is
  // in L1) and one super-block per step, its eight offsets decoded as one
  // vector, multiplied by the activation's eight sub-block sums and added
  // to a vector of eight partial sums carried across the row, in the same
  // step as the super-block's sums (the scf.for tagged qforge.super_blocks
  // in %row_loop); then those summed, a row per iteration. Returns the fused
  // rows' loop.
  transform.named_sequence @tile_two_level_offset_sums(%offset_sums: !transform.any_op {transform.readonly},
      %row_loop: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %sums, %rows = transform.split_handle %offset_sums : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %offset = transform.get_producer_of_operand %sums[0] : (!transform.any_op) -> !transform.any_op
    %fill = transform.qforge.get_init_producers %sums : (!transform.any_op) -> !transform.any_op
    %row, %offset_row_loop = transform.structured.tile_using_forall %sums tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_in_row, %l1 = transform.structured.fuse_into_containing_op %fill into %offset_row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Loops (n, tokens, b, hs, cc, h): one token (a decode).
    %block, %block_loop = transform.structured.tile_using_for %row tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.include @decode_per_super_block failures(propagate) (%offset, %offset_row_loop, %block_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> ()
    transform.annotate %block_loop "qforge.offset_blocks" : !transform.any_op
    %fused = transform.loop.fuse_sibling %row_loop into %offset_row_loop : (!transform.any_op, !transform.any_op) -> !transform.any_op
    // The super-block's offsets in the same step as its sums (the loop
    // tagged qforge.super_blocks): its scale bytes read once.
    %offset_blocks = transform.structured.match ops{["scf.for"]} attributes{qforge.offset_blocks} in %fused
      : (!transform.any_op) -> !transform.any_op
    %super_blocks = transform.structured.match ops{["scf.for"]} attributes{qforge.super_blocks} in %fused
      : (!transform.any_op) -> !transform.any_op
    // One constant per bound (sibling fusion compares their values; no
    // canonicalization, which would fold a loop of one super-block away).
    transform.apply_cse to %fused : !transform.any_op
    %fused_blocks = transform.loop.fuse_sibling %super_blocks into %offset_blocks : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.annotate %fused_blocks "qforge.super_blocks" : !transform.any_op
    %row_sums, %row_sums_loop = transform.structured.tile_using_forall %rows tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %fused : !transform.any_op
  }

  // f32 decode (docs/scripts.md, steps 2-3): xs per chunk as above; blocks
  // of groups of at most 6144 activation elements (the block's activation
  // stays in L1; a divisor, so shapes stay static); in each, one row per iteration of an scf.forall
  // (the threads), tagged qforge.weight_rows, its partial sums fused in; a
  // group per iteration; a chunk of lanes per step. The accumulators' fill
  // a row at a time (whole, LLVM cannot lower it), the rows' sums in their
  // own scf.forall. Returns both chunk loops, for the caller to unroll.
  transform.named_sequence @tile_f32_rows_in_group_blocks(%sums: !transform.any_op {transform.consumed},
      %partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed},
      %rows: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %sum_chunks = transform.include @tile_activation_sums_per_chunk failures(propagate) (%sums)
      : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    // The fill's dims are the accumulator tensor's: (1, 1, n, l).
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %fill_row, %fill_loop = transform.structured.tile_using_forall %groups_fill tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // Blocks of at most 6144 activation elements (48 groups of 128, 96 of
    // 64): the partial sums' loop 1 is the group, operand 0 the activation.
    // Counted in groups, groups of 64 ran as two blocks at half the read
    // rate of one (docs/benchmarks.md).
    %block_size = transform.qforge.dividing_tile_size %partials {dim = 1, at_most = 6144, footprint_operand = 0}
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
    %chunk_loops = transform.merge_handles %sum_chunks, %chunk_loop : !transform.any_op
    transform.yield %chunk_loops : !transform.any_op
  }

  // Integer decode: the activation quantized and summed as above; one row
  // per iteration of an scf.forall (no blocks), tagged qforge.weight_rows,
  // the group sums, the partial sums and their fills fused in; one group per
  // iteration (tagged qforge.weight_groups); one step of lanes x 4 bytes
  // (one vpdpbusd) at a time.
  // Returns both step loops, for the caller to unroll.
  transform.named_sequence @tile_int8_rows_and_groups(%quantization: !transform.any_op {transform.readonly},
      %sums: !transform.any_op {transform.consumed}, %partials: !transform.any_op {transform.consumed},
      %groups: !transform.any_op {transform.consumed}, %rows: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %sum_steps = transform.include @quantize_activation_per_group failures(propagate) (%quantization, %sums)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
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
    %group_loop = transform.get_parent_op %partials_in_group {op_name = "scf.for"}
      : (!transform.any_op) -> !transform.any_op
    transform.annotate %group_loop "qforge.weight_groups" : !transform.any_op
    %chunk, %chunk_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %step_loops = transform.merge_handles %sum_steps, %chunk_loop : !transform.any_op
    transform.yield %step_loops : !transform.any_op
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
    // A group's unrolled multiply-adds are one dependency chain; four partial
    // sums let the FMA units work on four of its steps at once.
    transform.qforge.split_accumulation_chains %vectorized {chains = 4} : !transform.any_op
    transform.yield
  }

  // The f32 decode strategy with 16 lanes (AVX-512), k = 16·j + l:
  //   p[n, g, l] = Σ_j x[g, j, l] · w[n, g, j, l];  xs[g, l] = Σ_j x[g, j, l];
  //   out[n] = Σ_l Σ_g s[n, g] · (p[n, g, l] − z[n, g] · xs[g, l]),
  // both j loops unrolled by K/16 = 8.
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 16} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunk_loops = transform.include @tile_f32_rows_in_group_blocks failures(propagate)
        (%sums, %partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %chunk_loops {factor = 8} : !transform.any_op
    transform.include @vectorize_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // With 8 lanes (one 256-bit register, AVX2): as @decode_f32_16_lanes,
  // the j loops unrolled by K/8 = 16.
  transform.named_sequence @decode_f32_8_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 8} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunk_loops = transform.include @tile_f32_rows_in_group_blocks failures(propagate)
        (%sums, %partials, %groups, %rows)
      : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %chunk_loops {factor = 16} : !transform.any_op
    transform.include @vectorize_f32_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // The integer decode strategy with 16 i32 lanes (one 512-bit vpdpbusd, 64
  // weights per step): the activation quantized per group to int8,
  // k = (j, l, q), i32 sums of u8 x s8 products (vectorized as multiply +
  // reduce: vpdpbusd after bufferization); both step loops unrolled by
  // K/64 = 2.
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 16} : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %step_loops = transform.include @tile_int8_rows_and_groups failures(propagate)
        (%quantization, %sums, %partials, %groups, %rows) : (!transform.any_op, !transform.any_op,
        !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %step_loops {factor = 2} : !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // A row's group loop (tagged qforge.weight_groups) unrolled by the
  // largest divisor of its groups up to %chains, and its accumulator carried
  // as that many partial sums, added after the loop: with small groups (one
  // or two vpdpbusd and a float epilogue per group) the one accumulator's
  // chain of multiply-adds, one per group, set the loop's pace
  // (docs/benchmarks.md). After the vectorization.
  transform.named_sequence @split_group_sums(%module: !transform.any_op {transform.readonly},
                                            %chains: !transform.param<i64> {transform.readonly}) {
    %groups = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.unroll_dividing %groups at_most = %chains : !transform.any_op, !transform.param<i64>
    // The unrolled copies' accumulator reshapes cancel, so that the adds
    // form one chain.
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %unrolled = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_loop_carried_sums %unrolled chains = %chains : !transform.any_op, !transform.param<i64>
    transform.yield
  }

  // With 8 i32 lanes (one 256-bit VEX vpdpbusd, AVX-VNNI: 32 weights per
  // step): as @decode_int8_16_lanes, the step loops unrolled by K/32 = 4.
  // The row's magnitude_times_sign (AVX2 without VNNI; 0 by default) sums
  // signed weight bytes times the clamped activation: one vpmaddubsw per
  // 32 products where the unsigned weights' exact expansion takes two.
  transform.named_sequence @decode_int8_8_lanes(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @generalize_and_match_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %magnitude_times_sign = transform.qforge.strategy_param "magnitude_times_sign" in %module default 0
      : (!transform.any_op) -> !transform.param<i64>
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction magnitude_times_sign = %magnitude_times_sign {lanes = 8}
        : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %step_loops = transform.include @tile_int8_rows_and_groups failures(propagate)
        (%quantization, %sums, %partials, %groups, %rows) : (!transform.any_op, !transform.any_op,
        !transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.loop.unroll %step_loops {factor = 4} : !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %vectorized = transform.include @vectorize_and_hoist failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // The f32 decode whole (decode-f32.mlir; prefill-in-place-f32.mlir runs
  // it per token): the row's numbers lanes_8 (16 or 8 lanes) and prefetch.
  transform.named_sequence @decode_f32(%module: !transform.any_op {transform.readonly}) {
    %lanes_8 = transform.qforge.strategy_param "lanes_8" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"lanes_8"> selected_region = %lanes_8 : !transform.param<i64> {
      transform.include @decode_f32_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }, {
      transform.include @decode_f32_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.yield
  }

  transform.named_sequence @decode_f32_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %prefetch = transform.qforge.strategy_param "prefetch" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"prefetch"> selected_region = %prefetch : !transform.param<i64> {
    }, {
      %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
        : (!transform.any_op) -> !transform.any_op
      transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64} : !transform.any_op
    }
    transform.yield
  }

  // The int8 decode whole (decode-int8.mlir; prefill-in-place-int8.mlir
  // runs it per token): the row's numbers lanes_8, chains, prefetch_into_l1
  // and prefetch_min_read_bytes.
  transform.named_sequence @decode_int8(%module: !transform.any_op {transform.readonly}) {
    %lanes_8 = transform.qforge.strategy_param "lanes_8" in %module : (!transform.any_op) -> !transform.param<i64>
    %chains = transform.qforge.strategy_param "chains" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"lanes_8"> selected_region = %lanes_8 : !transform.param<i64> {
      transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }, {
      transform.include @decode_int8_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.include @split_group_sums failures(propagate) (%module, %chains) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @decode_int8_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %into_l1 = transform.qforge.strategy_param "prefetch_into_l1" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"prefetch_into_l1"> selected_region = %into_l1 : !transform.param<i64> {
      %step_bytes = transform.qforge.strategy_param "prefetch_min_read_bytes" in %module : (!transform.any_op) -> !transform.param<i64>
      transform.include @prefetch_next_row_int8 failures(propagate) (%module, %step_bytes) : (!transform.any_op, !transform.param<i64>) -> ()
    }, {
      transform.include @prefetch_next_row_int8_into_l1 failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.yield
  }

  // Batches of blocks read in place (GGUF's q8_0; a static M > 1 or a
  // dynamic M's chunks): the canonical contraction (1, M, N, G, K) tiled one
  // token per scf.for iteration and its producers fused in
  // (transform.structured.fuse: the dequantization, whole, with the block
  // scales it decodes, and the output's fill, a token's row), so that each
  // iteration holds an M = 1 contraction the decodes above take as theirs.
  transform.named_sequence @tile_canonical_tokens_one_at_a_time(%module: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    %contraction = transform.collect_matching @has_two_reduction_dims in %func : (!transform.any_op) -> !transform.any_op
    %token, %token_loop = transform.structured.fuse %contraction tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %token_loop "qforge.tokens" : !transform.any_op
    transform.yield
  }
}
