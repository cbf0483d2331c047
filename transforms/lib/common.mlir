// Script library: steps every kind of strategy shares (docs/scripts.md
// says how a script includes them).
module attributes {transform.with_named_sequence} {

  // Finds the pair by structure -- the dequant generic (int-to-float, minus
  // zero-point, times scale read through (d0, d1, 0)) and the contraction
  // with two reduction dims (groups x elements) that it feeds -- and
  // shortens the dequant body with the PDLL set: extui + uitofp -> one
  // uitofp, one instruction less per weight once vectorized and no i32
  // intermediate four times the width of the weight.
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield %dequant, %contraction : !transform.any_op, !transform.any_op
  }

  // Fuses a producer (partial sums, group sums) and then the zero fill of
  // its accumulator into a loop: the tile of the sums that one iteration
  // needs is computed, and zeroed, inside it. Returns the fused ops and the
  // loop.
  transform.named_sequence @fuse_with_its_fill(%producer: !transform.any_op {transform.consumed},
                                               %fill: !transform.any_op {transform.consumed},
                                               %loop: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.any_op, !transform.any_op) {
    %fused, %loop_1 = transform.structured.fuse_into_containing_op %producer into %loop
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused_fill, %loop_2 = transform.structured.fuse_into_containing_op %fill into %loop_1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %fused, %fused_fill, %loop_2 : !transform.any_op, !transform.any_op, !transform.any_op
  }

  // Inside a row (or a row tile): one group per iteration (the groups are
  // its second dim), the group's partial sums (and their zero fill) fused
  // in, so the row's accumulator is the loop's carried value. Returns the
  // fused partial sums.
  transform.named_sequence @tile_one_group_per_iteration(%row: !transform.any_op {transform.consumed},
      %partials: !transform.any_op {transform.consumed}, %fill: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %group, %group_loop = transform.structured.tile_using_for %row tile_sizes [0, 1]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %partials_in_group, %fill_in_group, %loop = transform.include @fuse_with_its_fill failures(propagate)
        (%partials, %fill, %group_loop)
      : (!transform.any_op, !transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield %partials_in_group : !transform.any_op
  }

  // Vectorizes every op of the function as multiply + reduce, not
  // vector.contract: a contraction whose reduced dim lies outside the lanes
  // lowers to shuffles. First the insert a single-iteration forall leaves
  // becomes a reshape (vectorized, it would copy the whole tensor).
  transform.named_sequence @vectorize_children(%func: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.qforge.fold_whole_insert_slice
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    %vectorized = transform.structured.vectorize_children_and_apply_patterns %func
        {disable_multi_reduction_to_contract_patterns} : (!transform.any_op) -> !transform.any_op
    transform.yield %vectorized : !transform.any_op
  }

  // Hoists what the loops do not change: the accumulators read and written
  // through the loops' tensors become vector iter_args (they stay in
  // registers across the k and group loops).
  transform.named_sequence @hoist_loop_invariants(%vectorized: !transform.any_op {transform.readonly}) {
    transform.apply_cse to %vectorized : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %vectorized : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %loops : !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.yield
  }

  // The vectorization of every strategy but the interleaved packed decode:
  // vectorize, hoist the accumulators, then remove the broadcast +
  // transpose pairs the vectorizer emits for the (d0, d1, 0) reads and the
  // leading unit dims.
  transform.named_sequence @vectorize_and_hoist(%func: !transform.any_op {transform.consumed})
      -> !transform.any_op {
    %vectorized = transform.include @vectorize_children failures(propagate) (%func)
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.include @hoist_loop_invariants failures(propagate) (%vectorized) : (!transform.any_op) -> ()
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.fold_broadcast_transpose
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield %vectorized : !transform.any_op
  }

  // The cross-lane sums left after vectorization, lowered, and
  // reassociated so that LLVM reduces them as a shuffle tree instead of a
  // chain of dependent adds.
  transform.named_sequence @lower_reductions_as_trees(%vectorized: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %vectorized {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }

  // The n-D broadcasts of a block of activation rows (prefill), and the
  // transposes of the activation's pack, lowered one pattern set at a time:
  // together, these sets rewrite each other's output without end on n-D
  // vectors.
  transform.named_sequence @lower_broadcasts(%vectorized: !transform.any_op {transform.readonly}) {
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

  // Matches a contraction with at least two reduction dims (the pair's:
  // groups x elements, or the two-level form's sub-block dims and
  // elements; a dequantization generic has none), for
  // transform.collect_matching.
  transform.named_sequence @has_two_reduction_dims(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.match.operation_name %op ["linalg.generic"] : !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%structured: !transform.any_op):
      transform.match.structured.dim %structured[-1, -2] {reduction} : !transform.any_op
      transform.match.structured.yield
    }
    transform.yield %op : !transform.any_op
  }
}
