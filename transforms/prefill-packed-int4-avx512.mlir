// Packed prefill strategy for 4-bit weights (batched group-quantized
// matmul) on AVX-512 CPUs: prefill-packed-avx512.mlir for weights stored two
// per byte (qforge-store-int4-as-byte-pairs, docs/abi.md).
//
// Input: the seed form with M rows and i4 weights NxGxK, after the driver
// stored them as byte pairs: weights NxGxK/2 bytes, element 2i in the low
// nibble of byte i; the contraction's dims are (1, m, n, g, k/2, k%2).
// Output: @f_pack_weights and @f (docs/abi.md).
//
// Packed layout: as prefill-packed-avx512.mlir with bytes of two k: weights
// N/64 x G x K/2 x 64 (one 64-byte line per byte step = two k steps),
// scales and zero-points N/64 x G x 1 x 64; the activation rows m tiled by
// 8 per call (1 x M/8 x G x K/2 x 2 x 8). M and N that are not multiples of
// the tiles are padded with zeros, cut by the result's unpack.
//
// What sets the numbers (the register block is the 8-bit strategy's):
//   lanes = 64     weight rows per tile: 4 zmm of 16 f32 per k step.
//   block = 8      activation rows per register block: 8 x 4 zmm
//                  accumulators; each converted weight vector feeds 8 FMAs.
//   nibble loop    tiled by 1 and unrolled: the shift (0 or 4) is a constant.
//   unroll = 4     byte steps per iteration (8 k steps, as the 8-bit
//                  strategy's 8).
//   activation     packed and summed 8 byte pairs (16 k) x 8 rows at a time,
//                  as the 8-bit strategy's 16 k.
// Loop nest per 64-row tile (an scf.forall over the tiles, OpenMP): groups,
// then blocks of 8 activation rows, then byte steps: a group's weight tile
// (64 x K/2 bytes, 4 KiB for the seed) stays in L1 while every row block
// reads it.
module attributes {transform.with_named_sequence} {

  // Step 1: pack the contraction's weight rows (n) by 64 and its activation
  // rows (m) by 8; the weights' pack then moves up through the dequant to the
  // quantized parameters, the scale and zero-point keeping their unit dim.
  // Non-dividing tiles pad with zeros, never poison: zero weights, scales and
  // zero-points dequantize to zero; zero activation rows give zero results,
  // cut by the unpack.
  transform.named_sequence @pack(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    %packed = transform.structured.pack %contraction packed_sizes = [0, 8, 64, 0, 0, 0]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // The activation's pack (m padded to a multiple of 8 with zeros) runs
    // per call, 8 byte pairs (16 k) x 8 rows at a time: the transposes stay
    // in registers (a whole group's K x 8 would be spilled to a 4 KiB stack
    // slot).
    %activation_pack = transform.get_producer_of_operand %packed[0]
      : (!transform.any_op) -> !transform.any_op
    %act_tile, %act_loops:4 = transform.structured.tile_using_for %activation_pack tile_sizes [1, 1, 1, 8]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
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

  // Step 3: scale and zero-point out of the k sum, per group and
  // activation row m:
  //   xs[m, g] = Σ_k x[m, g, k], once per call;
  //   p[tile, g, m, lanes] = Σ_k x[m, g, k] · w[tile, g, k, lanes];
  //   out[m, tile, lanes] += Σ_g s · (p − z · xs).
  // The generics keep the packed dims, the activation rows just before the
  // lanes; no unit dim is folded.
  transform.named_sequence @factor(%kernel: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // The activation sums, likewise 8 byte pairs x 8 rows at a time.
    %sums_tile, %sums_loops:4 = transform.structured.tile_using_for %sums tile_sizes [1, 1, 1, 8]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // Step 4: one 64-row weight tile per iteration of an scf.forall (OpenMP;
  // each thread streams a contiguous range of tiles), one group per
  // iteration inside it, one block of 8 activation rows inside that, the
  // partial sums fused into each, and their byte steps one at a time,
  // unrolled by 4, each split into its two nibbles (unrolled). Dims of the group
  // sums: (n/64, g, 1, m/8, 8, 64); of the partial sums:
  // (n/64, g, k/2, k%2, 1, m/8, 8, 64) -- a tile is 8 rows x 64 lanes.
  transform.named_sequence @tile(%partials: !transform.any_op {transform.consumed},
                                 %groups: !transform.any_op {transform.consumed}) {
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %row_tile, %row_loop = transform.structured.tile_using_forall %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    transform.annotate %group_loop "qforge.weight_groups" : !transform.any_op
    %partials_in_group, %g1 = transform.structured.fuse_into_containing_op %partials_in_row into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_group, %g2 = transform.structured.fuse_into_containing_op %pf_in_row into %g1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %block_tile, %block_loop = transform.structured.tile_using_for %group_tile tile_sizes [0, 0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_block, %b1 = transform.structured.fuse_into_containing_op %partials_in_group into %block_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_block, %b2 = transform.structured.fuse_into_containing_op %pf_in_group into %b1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k_step, %byte_loop, %nibble_loop = transform.structured.tile_using_for %partials_in_block
        tile_sizes [0, 0, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %byte_loop {factor = 4} : !transform.any_op
    transform.yield
  }

  // Step 5: vectorize. Each nibble of a byte step: 64 weight bytes shifted
  // by 0 or 4, their low nibbles converted to 4 x 16 f32 and multiplied-added
  // by the 8 broadcast activation values into 8 x 4 accumulators, carried
  // across the k loop (LLVM keeps most in registers and spills the rest: 32
  // accumulators fill the zmm file). The 8-row broadcasts are lowered here, one set of patterns at a time (together
  // they rewrite each other's output without end on these n-D vectors).
  transform.named_sequence @vectorize(%kernel: !transform.any_op {transform.consumed}) {
    transform.apply_patterns to %kernel {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %kernel : !transform.any_op
    %vectorized = transform.structured.vectorize_children_and_apply_patterns %kernel
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
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  // Step 6, run by the driver after bufferization: prefetch the next
  // group's weight tile, as in the decode strategy (the kernel is
  // compute-bound, the weights are read M/8 times from L1 per tile).
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 1, line_bytes = 64, min_read_bytes = 64}
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
    // The result's unpack (the padded rows cut), one 8 x 64 output tile at a
    // time: unvectorized whole, it would be one M x N vector.
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %unpack_tile, %unpack_loops:2 = transform.structured.tile_using_for %unpack tile_sizes [0, 8, 64]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @vectorize failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }
}
