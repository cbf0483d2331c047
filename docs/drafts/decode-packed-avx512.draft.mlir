// DRAFT -- not a shipped strategy, not used by any tool or test (issue 4).
// Steps 1-3 (pack, bubble, pre-pack into @f_pack_weights, tile rows and fuse
// the packed dequant into the group and chunk loops) run and give the
// expected IR. Step 4 does not compile yet: the tile_reduction accumulator
// (rows x 1 x 16) keeps a unit dim that the vector lowering turns into
// element-wise shuffles, and applying linalg-fold-unit-extent-dims inside
// the group loop leaves a collapse_shape of the loop-carried tensor that
// one-shot bufferization rejects ("Yield operand #0 is not equivalent").
// Left here so the next session starts from it.
// Packed decode strategy (batch-1 group-quantized matvec) for AVX-512 CPUs:
// data tiling of the seed kernel, the IREE issue's plan done end to end.
//
// Input: the seed form, weights NxGxK (int), scales and zero-points NxGx1
// read through (d0, d1, 0), activation 1x1xGxK, result 1x1xN (f32); the
// contraction's dims are (1, 1, n, g, k).
// Output: two functions (docs/abi.md):
//   @f_pack_weights  packs weights, scales and zero-points once;
//   @f               the per-call kernel on packed parameters.
//
// Packed layout, for inner tiles [rows, 1, group]:
//   weights  N/rows x G x 1 x rows x 1 x group   one tile = `rows` rows of
//            one group, contiguous (rows x group bytes)
//   scales   N/rows x G x 1 x rows x 1 x 1       read through
//   zps      (d0, d1, 0, d3, d4, 0): one value per (row, group), in the
//            same tile order as the weights
//
// What sets the numbers:
//   rows = 8         rows per tile: one 16-lane f32 accumulator per row,
//                    8 of the 32 zmm registers, the others hold the
//                    activation chunk, converted weights and per-row scale
//                    and zero-point. The tile (8 x 128 bytes = 1 KiB for
//                    the seed) is one sequential stream, unlike 8 rows of
//                    the unpacked layout (8 streams 4 KiB apart).
//   group = K        the whole group in one inner tile (128 for the seed):
//                    the scale and zero-point are constant across it.
//   lanes = 16       f32 lanes in one 512-bit register: the k chunk
//                    accumulated elementwise, reduced once per row tile.
//   unroll = K/lanes the chunk loop, unrolled whole (8 for K = 128).
module attributes {transform.with_named_sequence} {

  // Step 1: pack the contraction with inner tiles (rows, 1, group) on
  // (n, g, k); the weights' pack then moves up through the dequant to the
  // quantized parameters, the scale and zero-point keeping their unit dim.
  // Non-dividing tiles pad with zeros (not poison): zero activations, and
  // zero weights, scales and zero-points that dequantize to zero.
  transform.named_sequence @pack(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 8, 1, 128]
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

  // Step 2: the packs of weights, scales and zero-points read the model's
  // parameters: run them once, in @f_pack_weights, not on every call.
  transform.named_sequence @prepack_parameters(%packed: !transform.any_op {transform.readonly}) {
    %packed_dequant = transform.get_producer_of_operand %packed[1]
      : (!transform.any_op) -> !transform.any_op
    %pack_functions = transform.qforge.split_parameter_packing %packed_dequant
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // Step 3: one tile of rows per iteration of an scf.forall (OpenMP), the
  // dequant of that tile fused into it; inside, the reduction over groups
  // and 16-lane chunks of k carried in a rows x 16 accumulator, reduced
  // across lanes once per row tile.
  transform.named_sequence @tile(%packed: !transform.any_op {transform.consumed}) {
    %fill = transform.qforge.get_init_producers %packed : (!transform.any_op) -> !transform.any_op
    %packed_dequant = transform.get_producer_of_operand %packed[1]
      : (!transform.any_op) -> !transform.any_op
    %tile, %row_loop = transform.structured.tile_using_forall %packed tile_sizes [0, 0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %row_loop "qforge.weight_rows" : !transform.any_op
    %dq_in_row, %l1 = transform.structured.fuse_into_containing_op %packed_dequant into %row_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_in_row, %l2 = transform.structured.fuse_into_containing_op %fill into %l1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The tile's unit dims (batch 1x1, one row tile, k not split in outer
    // tiles, one group per inner tile) go: the contraction becomes
    // (groups, rows, k), reduced over groups and k.
    %func = transform.get_parent_op %l2 {op_name = "func.func"}
      : (!transform.any_op) -> !transform.any_op
    %folded = transform.apply_registered_pass "linalg-fold-unit-extent-dims" to %func
      : (!transform.any_op) -> !transform.any_op
    %rows = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %folded
      : (!transform.any_op) -> !transform.any_op
    %row_contraction = transform.structured.match ops{["linalg.generic"]}
        attributes{iterator_types = [#linalg.iterator_type<reduction>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>]}
        in %rows : (!transform.any_op) -> !transform.any_op
    %row_dequant = transform.get_producer_of_operand %row_contraction[1]
      : (!transform.any_op) -> !transform.any_op
    %partial_fill, %partial, %combine, %loops = transform.structured.tile_reduction_using_for %row_contraction
        by tile_sizes = [1, 0, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %chunk_loop = transform.get_parent_op %partial {op_name = "scf.for"} : (!transform.any_op) -> !transform.any_op
    %group_loop = transform.get_parent_op %partial {op_name = "scf.for", nth_parent = 2} : (!transform.any_op) -> !transform.any_op
    %dq_in_group, %g1 = transform.structured.fuse_into_containing_op %row_dequant into %group_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %dq_in_chunk, %c1 = transform.structured.fuse_into_containing_op %dq_in_group into %chunk_loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %c1 {factor = 8} : !transform.any_op
    transform.yield
  }

  // Step 4: vectorize. Each chunk step is elementwise on rows x 16 lanes:
  // convert, subtract the row's zero-point, multiply by its scale, FMA into
  // the accumulator, which stays in registers across chunks and groups; the
  // chunk loop is unrolled whole. Only the per-row sums across the 16 lanes
  // remain as reductions, lowered as shuffle trees.
  transform.named_sequence @vectorize(%func: !transform.any_op {transform.consumed}) {
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
    // One set at a time: together with canonicalization, the permutation
    // patterns and the shape_cast lowering rewrite each other's output
    // without end on these reads.
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

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %packed = transform.include @pack failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.include @prepack_parameters failures(propagate) (%packed) : (!transform.any_op) -> ()
    %kernel = transform.get_parent_op %packed {op_name = "func.func"}
      : (!transform.any_op) -> !transform.any_op
    transform.include @tile failures(propagate) (%packed) : (!transform.any_op) -> ()
    transform.include @vectorize failures(propagate) (%kernel) : (!transform.any_op) -> ()
    transform.yield
  }
}
