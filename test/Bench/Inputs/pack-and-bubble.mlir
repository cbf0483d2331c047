// Packs the decode contraction with tiles that do not divide the kernel
// (rows 8 on N = 36, k 8 inside groups of 16: the scale's broadcast dim gets
// an outer range of 2), pads with zeros and bubbles the weight pack through
// the dequant; no tiling. The fixed lowering runs the packs and the packed
// generics as loops, so a run compares the packed form with the oracle.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 8, 1, 8]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
    } : !transform.any_op
    transform.yield
  }
}
