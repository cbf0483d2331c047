// Packs the decode contraction with rows by 16 and k by 4 (the vpdpbusd
// layout: 16 rows x 4 bytes per 64-byte line), bubbles the weight pack
// through the dequant and applies the integer packed factoring; no tiling,
// no vectorization: the fixed lowering runs the generics as loops, so a run
// checks the factoring's arithmetic against the oracle.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
