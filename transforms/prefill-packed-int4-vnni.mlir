// Packed integer prefill strategy for 4-bit weights (batched
// group-quantized matmul) on AVX-512 VNNI CPUs: prefill-packed-int8-vnni.mlir
// for weights stored two per byte (qforge-store-int4-as-byte-pairs,
// docs/abi.md), the activation quantized per row and group to int8 (opt-in:
// ~3e-3-5e-3 normalized error, docs/numerics.md).
//
// Input: the seed form with M > 8 rows and i4 weights NxGxK (signed or
// unsigned) after the driver stored them as byte pairs: the contraction's
// dims are (1, m, n, g, k/2, k%2).
// Output: @f_pack_weights (once per model) and @f (docs/abi.md).
//
// Packed layout: weight rows by 32 and byte pairs by 4 (N/32 x G x K/8 x 32
// x 4 bytes: a byte step is two 64-byte lines of 16 rows, each line two
// vpdpbusd operands, the low and the high nibbles); activation
// rows by 8 as in prefill-packed-int8-vnni.mlir (per call,
// 1 x M/8 x G x K/8 x 2 x 8 x 4). M and N that are not multiples of the
// tiles are padded with zeros, cut by the unpack.
//
// What sets the numbers (those of the two strategies it combines):
//   rows = 32, pair tile = 4   one 512-bit vpdpbusd per nibble of a line,
//                              two lines per byte step: 16 independent
//                              accumulators, as in
//                              prefill-packed-int8-vnni.mlir (16 rows, 8
//                              accumulators: 378 GFLOP/s on the seed
//                              weights, M = 128, one thread; 32: 460-480).
//   block = 8                  activation rows per register block: each
//                              nibble vector feeds 8 vpdpbusd.
//   loop order                 nibble (unrolled: two copies of the byte
//                              loop, shift 0 and 4), byte steps, rows
//                              (unrolled): each byte loop updates its 8
//                              accumulators once per step, so they stay in
//                              registers (with the nibble inside the byte
//                              step they were stored after every vpdpbusd:
//                              256 against 373 GFLOP/s). The line is read
//                              twice, from L1.
module attributes {transform.with_named_sequence} {

  // Step 1: pack the contraction's weight rows (n) by 32, byte pairs (k/2)
  // by 4 and the activation rows (m) by 8; the weights' pack then moves up
  // through the dequant to the quantized parameters, the scale and
  // zero-point keeping their unit dims. Non-dividing tiles pad with zeros, never poison: zero
  // weights, scales and zero-points dequantize to zero; zero activation rows
  // give zero results, cut by the unpack. The activation's pack stays whole
  // here: step 3 quantizes the activation before it.
  transform.named_sequence @pack(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    %packed = transform.structured.pack %contraction packed_sizes = [0, 8, 32, 0, 4, 0]
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

  // Step 3: the activation quantized per row and group to int8 (amax, xq,
  // xs: once per call), and scale, zero-point and activation scale out of
  // the k sum:
  //   xs[m, g] = Σ_k xq[m, g, k];  p[tile, g, m, row] = Σ_k w · xq  (i32);
  //   out[m, tile, row] += Σ_g s · amax[m, g] / 127 · (p − z · xs).
  transform.named_sequence @factor(%kernel: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %kernel
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // The factoring quantizes the activation before its pack (amax, xq and
    // xs on the unpacked rows: a group's 128 values are contiguous, 8 zmm
    // per op) and packs the results. Every row and every pack's block of 8
    // rows is one iteration of an scf.forall (the threads share the
    // per-call work), one group at a time; the int8 pack (the transpose: 8
    // rows inside each 4-pair step) 32 k x 8 rows at a time, in registers.
    %q_rows, %q_forall = transform.structured.tile_using_forall %quantization tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %q_tiles, %q_loop = transform.structured.tile_using_for %q_rows tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s_rows, %s_forall = transform.structured.tile_using_forall %sums tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s_tiles, %s_loop = transform.structured.tile_using_for %s_rows tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %q_loop "qforge.activation_groups" : !transform.any_op
    transform.annotate %s_loop "qforge.activation_groups" : !transform.any_op
    // The factoring's packs, by the role it tags them with (no xs pack
    // without a zero-point and with unsigned weights).
    %xq_pack = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "xq"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %max_pack = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "amax"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %sums_pack = transform.structured.match ops{["linalg.pack"]} attributes{qforge.activation_pack = "xs"} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %xq_blocks, %xq_forall = transform.structured.tile_using_forall %xq_pack tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %xq_tiles, %xq_loops:2 = transform.structured.tile_using_for %xq_blocks tile_sizes [0, 0, 1, 4]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %group_packs = transform.merge_handles %max_pack, %sums_pack : !transform.any_op
    %group_pack_tiles, %group_pack_forall = transform.structured.tile_using_forall %group_packs tile_sizes [1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // Step 4a: one 32-row tile per iteration of an scf.forall (OpenMP; each
  // thread streams a contiguous range of tiles), its partial sums fused in.
  // Then the unit dims are folded (linalg-fold-unit-extent-dims): inside the
  // forall the row tile is always 1, so every N folds alike, and the packed
  // scale's trailing unit dim goes (read as vector<32x1> through a
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

  // Step 4b: in each row tile, one group per iteration, one block of 8
  // activation rows inside it, the partial sums fused into both; then the
  // two nibbles (unrolled), in each the byte steps (128 bytes: 32 rows x 4
  // byte pairs) one at a time and in each the 8 activation rows and the two
  // 16-row lines (unrolled: 8 vpdpbusd per nibble vector). After the fold, the group sums are
  // (g, m/8, 8, row) and the partial sums (g, k/8, k%2, m/8, 8, row, 4).
  transform.named_sequence @tile_groups(%kernel: !transform.any_op {transform.readonly}) {
    %rows = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %groups = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %partials = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]} in %rows
      : (!transform.any_op) -> !transform.any_op
    %partials_fill = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %group_tile, %group_loop = transform.structured.tile_using_for %groups tile_sizes [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %group_loop "qforge.weight_groups" : !transform.any_op
    %partials_in_group, %g1 = transform.structured.fuse_into_containing_op %partials into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_group, %g2 = transform.structured.fuse_into_containing_op %partials_fill into %g1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %block_tile, %block_loop = transform.structured.tile_using_for %group_tile tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_block, %b1 = transform.structured.fuse_into_containing_op %partials_in_group into %block_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pf_in_block, %b2 = transform.structured.fuse_into_containing_op %pf_in_group into %b1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k_step, %nibble_loop, %byte_loop, %row_loop, %lane_loop = transform.structured.tile_using_for %partials_in_block
        tile_sizes [0, 1, 1, 0, 1, 16] interchange = [0, 2, 1, 3, 4, 5]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %lane_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %row_loop {factor = 8} : !transform.any_op
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.yield
  }

  // Step 5: vectorize. Each (byte step, nibble, activation row, line): a
  // vector<16x4xi32> product of the 64 weight bytes' nibbles (shifted by 0
  // or 4, truncated to i4, extui) and the row's 4 activation bytes
  // broadcast to the 16 weight rows (extsi), summed over the 4 bytes into
  // that row's 16-lane i32 accumulator; left as a multi_reduction for step
  // 6. The per-group activation reductions (amax, xs) are lowered here.
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

  // Step 6, run by the driver after bufferization: prefetch the next group's
  // weight tile (one prefetch per 64-byte line, none for the 4-byte
  // activation reads); then each product sum becomes one vpdpbusd (an LLVM
  // intrinsic call, which bufferization's analysis would not accept
  // earlier), and only then are the remaining reductions, the 8-row
  // broadcasts of the group sums and the activation pack's transposes
  // lowered (one pattern set at a time) -- earlier, lowering the broadcast
  // of the activation bytes would hide the product from the vpdpbusd
  // pattern.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %group_loop = transform.structured.match ops{["scf.for"]} attributes{qforge.weight_groups} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %group_loop {iterations = 1, line_bytes = 64, min_read_bytes = 64}
      : !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.transfer_permutation_patterns
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_broadcast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
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
    // The result's unpack (the padded rows cut), one 8 x 32 output tile at a
    // time: unvectorized whole, it would be one M x N vector.
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel
      : (!transform.any_op) -> !transform.any_op
    %unpack_tile, %unpack_loops:2 = transform.structured.tile_using_for %unpack tile_sizes [0, 8, 32]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %folded = transform.apply_registered_pass "linalg-fold-unit-extent-dims" to %kernel
      : (!transform.any_op) -> !transform.any_op
    transform.include @tile_groups failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.include @vectorize failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }
}
