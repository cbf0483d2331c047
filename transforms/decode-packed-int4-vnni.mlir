// Packed integer decode strategy for 4-bit weights (batch-1 group-quantized
// matvec) on AVX-512 VNNI CPUs: decode-packed-int8-vnni.mlir for weights
// stored two per byte, the activation quantized per group to int8 (opt-in,
// --int8-activations; the error is that of the 8-bit path, docs/numerics.md).
//
// Input: the seed form with unsigned i4 weights (extui/uitofp) after the
// driver stored them as byte pairs (qforge-store-int4-as-byte-pairs,
// docs/abi.md): weights NxGxK/2 bytes, element 2i in the low nibble of byte
// i; the contraction's dims are (1, 1, n, g, k/2, k%2).
// Output: @f_pack_weights (once per model) and @f on the packed parameters
// (docs/abi.md).
//
// Packed layout: rows tiled by 16, byte pairs (k/2) by 4, both innermost:
//   weights  N/16 x G x K/8 x 16 x 4   bytes; one 64-byte line = 16 rows x
//            4 byte pairs = 8 k: its low nibbles are one vpdpbusd operand
//            (k = 0, 2, 4, 6), its high nibbles another (k = 1, 3, 5, 7)
//   scales   N/16 x G x 1 x 16 x 1     read through (d0, d1, 0, d3, 0)
//   zps
// The activation is packed the same way per call (G x K/8 x 2 x 4 bytes):
// the 4 activation bytes of each vpdpbusd are consecutive.
// N that is not a multiple of 16 is padded with zero rows; a group size
// that is not a multiple of 8 pads k with zero weights and zero activation
// bytes.
//
// What sets the numbers:
//   rows = 16      the lanes of one 512-bit vpdpbusd (16 x i32).
//   pair tile = 4  the bytes one i32 lane sums, per nibble.
//   nibble loop    tiled by 1 and unrolled: one vpdpbusd each, the nibble
//                  picked by a constant shift (0 or 4) and a mask.
//   unroll = 8     byte steps (64-byte lines) per iteration.
//   prefetch 4     four groups ahead (4 x 16 x K/2 bytes = 4 KiB for the
//                  seed): one group (1 KiB) ahead left the seed at 0.83 of
//                  the read bandwidth, 4 and 8 groups at 0.90.
module attributes {transform.with_named_sequence} {

  // Step 1: pack the contraction's rows (n) by 16 and byte pairs by 4; the weights'
  // pack then moves up through the dequant to the quantized parameters, the
  // scale and zero-point keeping their unit dims. Non-dividing row tiles pad
  // with zeros, never poison: zero weights, scales and zero-points
  // dequantize to zero. The activation's pack is a transpose here (the 4
  // byte pairs of a tile move inside the nibble dim), run per call 4 tiles
  // (32 k) at a time: vectorized whole, its transpose grows with G x K and
  // LLVM spends minutes on the shuffles (86 groups).
  transform.named_sequence @pack(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4, 0]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %activation_pack = transform.get_producer_of_operand %packed[0]
      : (!transform.any_op) -> !transform.any_op
    %act_tile, %act_loops:4 = transform.structured.tile_using_for %activation_pack tile_sizes [1, 1, 1, 4]
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

  // Step 3: the activation quantized per group to int8 (amax, xq: once per
  // call, one group at a time), and scale, zero-point and activation scale
  // out of the k sum:
  //   xs[g] = Σ_k xq[g, k];  p[tile, g, row] = Σ_k w · xq  (i32, exact);
  //   out[tile, row] += Σ_g s · amax[g] / 127 · (p − z · xs).
  transform.named_sequence @factor(%kernel: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %q_tiles, %q_loops:3 = transform.structured.tile_using_for %quantization tile_sizes [1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %s_tiles, %s_loops:3 = transform.structured.tile_using_for %sums tile_sizes [1, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %q_loops#2 "qforge.activation_groups" : !transform.any_op
    transform.annotate %s_loops#2 "qforge.activation_groups" : !transform.any_op
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // Step 4a: one 16-row tile per iteration of an scf.forall (OpenMP; each
  // thread streams a contiguous range of tiles), its partial sums fused in.
  // Then the unit dims are folded (linalg-fold-unit-extent-dims): inside the
  // forall the row tile is always 1, so every N folds alike, and the packed
  // scale's trailing unit dim goes (read as vector<16x1> through a
  // broadcast, it is a form the fixed lowering cannot reduce).
  transform.named_sequence @tile_rows(%partials: !transform.any_op {transform.consumed},
                                      %groups: !transform.any_op {transform.consumed}) {
    %groups_fill = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %row_tile, %row_loop = transform.structured.tile_using_forall %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %partials_in_row, %l1 = transform.structured.fuse_into_containing_op %partials into %row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_row, %l2 = transform.structured.fuse_into_containing_op %partials_fill into %l1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %gf_in_row, %l3 = transform.structured.fuse_into_containing_op %groups_fill into %l2
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  // Step 4b: in each row tile, one group per iteration, its partial sums
  // fused in, and their byte steps (64 bytes: 16 rows x 4 byte pairs) one at
  // a time, unrolled by 8, each split into its two nibbles (unrolled). After
  // the fold, the group sums are (g, row) and the partial sums
  // (g, k/8, k%2, row, 4).
  transform.named_sequence @tile_groups(%kernel: !transform.any_op {transform.readonly}) {
    %rows = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %groups = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %group_tile, %group_loop = transform.structured.tile_using_for %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %group_loop "qforge.weight_groups" : !transform.any_op
    %partials_in_group, %g1 = transform.structured.fuse_into_containing_op %partials into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_group, %g2 = transform.structured.fuse_into_containing_op %partials_fill into %g1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k_step, %byte_loop, %nibble_loop = transform.structured.tile_using_for %partials_in_group tile_sizes [0, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %byte_loop {factor = 8} : !transform.any_op
    transform.yield
  }

  // Step 5: vectorize. Each nibble of a byte step: a vector<16x4xi32>
  // product of the 64 weight bytes' nibbles (shifted by 0 or 4, truncated to
  // i4, extui) and the group's 4 activation bytes for those k broadcast to
  // the 16 rows (extsi), summed over the 4 bytes into a 16-lane i32 accumulator;
  // left as a multi_reduction for step 6. The per-group activation
  // reductions (amax, xs) are lowered here.
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
    // The per-group activation reductions (amax, xs) are lowered here; the
    // byte products' sums stay multi_reductions until after bufferization,
    // where they become vpdpbusd.
    %activation_groups = transform.structured.match ops{["scf.for"]} attributes{qforge.activation_groups} in %vectorized
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %activation_groups {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %activation_groups {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.yield
  }

  // Step 6, run by the driver after bufferization: prefetch the weight tile
  // of the group four ahead (one prefetch per 64-byte line, none for the
  // 4-byte activation reads); then each nibble's product sum becomes one
  // vpdpbusd on the bytes masked to that nibble (an LLVM intrinsic call,
  // which bufferization's analysis would not accept earlier), and the
  // remaining reductions are lowered.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 4, line_bytes = 64, min_read_bytes = 64}
      : !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
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
    transform.include @tile_rows failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> ()
    %folded = transform.apply_registered_pass "linalg-fold-unit-extent-dims" to %kernel
      : (!transform.any_op) -> !transform.any_op
    transform.include @tile_groups failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.include @vectorize failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }
}
