// Packed decode strategy for 4-bit weights (batch-1 group-quantized matvec)
// on AVX-512 CPUs: decode-packed-avx512.mlir for weights stored two per
// byte. The driver picks it for any kernel with i4 weights.
//
// Input: the seed form with i4 weights NxGxK, after the driver stored them
// as byte pairs (qforge-store-int4-as-byte-pairs, docs/abi.md): weights
// NxGxK/2 bytes, element 2i in the low nibble of byte i; the k loop split
// into (k/2, k%2) everywhere, so the contraction's dims are
// (1, 1, n, g, k/2, k%2), and the dequant takes its nibble with a shift by
// 4 * (k%2).
// Output: @f_pack_weights and @f (docs/abi.md), as decode-packed-avx512.mlir.
//
// Packed layout: the rows tiled by `rows`, the tile innermost:
//   weights  N/rows x G x K/2 x rows   bytes; byte (r, k/2) of a tile holds
//                                      row r's k and k+1 (low, high nibble)
//   scales   N/rows x G x 1 x rows     read through (d0, d1, 0, d3)
//   zps
// N that is not a multiple of `rows` is padded with zero bytes, scales and
// zero-points, which dequantize to zero.
//
// What sets the numbers:
//   rows = 64     the lanes, as for 8-bit weights: each byte step is 64
//                 bytes (one cache line) = two k steps of 4 zmm vectors
//                 (the low nibbles, then the high ones), each multiplied by
//                 its broadcast activation value into the same 4
//                 accumulators.
//   nibble loop   tiled by 1 and unrolled: the shift (0 or 4) is a constant.
//   unroll = 4    byte steps per iteration (4 lines, 8 k steps, as the
//                 8-bit strategy's 8).
//   prefetch 1    one group ahead (rows x K/2 bytes = 4 KiB for the seed).
// Bound: each line costs 8 byte-to-i32 extensions and 8 conversions on
// top of the 8 FMAs; on a 2.3 GHz core that is ~10 GB/s of weights, so this
// f32 path is compute-bound below the read bandwidth. The int8-activation
// strategy (decode-packed-int4-vnni.mlir) is the fast one.
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
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 64, 0, 0, 0]
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
    // xs one group at a time: over the whole activation, the reduction of
    // its (k/2, k%2) dims lowers to shuffles of a G x K vector that LLVM
    // takes minutes over (86 groups).
    %sums_tile, %sums_loops:3 = transform.structured.tile_using_for %sums tile_sizes [1, 1, 1]
      : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %partials, %groups : !transform.any_op, !transform.any_op
  }

  // Step 4: one row tile per iteration of an scf.forall (OpenMP; each
  // thread streams a contiguous range of row tiles), one group per iteration
  // inside it, the group's partial sums fused into it, and its byte steps
  // one at a time (each: 64 bytes, two nibbles), unrolled by 4; the nibble
  // loop inside unrolled fully. Dims of the group sums:
  // (n/rows, g, 1, 1, rows); of the partial sums:
  // (n/rows, g, k/2, k%2, 1, 1, rows) -- the activation's unit dims just
  // before the lanes.
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
    %k_step, %byte_loop, %nibble_loop = transform.structured.tile_using_for %partials_in_group
        tile_sizes [0, 0, 1, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.loop.unroll %nibble_loop {factor = 2} : !transform.any_op
    transform.loop.unroll %byte_loop {factor = 4} : !transform.any_op
    transform.yield
  }

  // Step 5: vectorize. Each nibble of a byte step: 64 bytes shifted by 0 or
  // 4, their low nibbles converted to 4 x 16 f32, multiply-add by the broadcast activation value into 4 accumulators (the
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
    transform.yield
  }

  // Step 6, run by the driver after bufferization: while one group's tile
  // is converted and multiplied, ask for the next group's (4 KiB ahead for
  // the seed), one prefetch per 64-byte line -- each byte step's line of this
  // group prefetches the same line of the next (as for 8-bit weights, where
  // the hardware prefetcher alone left the kernel at ~0.65 of the read
  // bandwidth). The scalar
  // activation reads (4 bytes, in L1) get none (min_read_bytes = 64): one
  // fewer instruction per k step, ~10% less time hot.
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
    transform.include @vectorize failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }
}
