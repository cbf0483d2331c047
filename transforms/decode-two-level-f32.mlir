// Decode (M = 1) with f32 activations, on the two-level form of llama.cpp's
// K-quants (examples/gen_gguf_kernel.py q4_K|q5_K|q6_K; docs/gguf.md): each
// weight is s·q − o of its sub-block, a super-block's sub-blocks its group
// dims (q4_K: hs, cc, h; q6_K: h, k1, k0, l1 -- tile_two_level_loops tiles
// them by role, whatever their number). Factored (transform.qforge.factor_two_level_contraction): one row
// per iteration of the threads' scf.forall, one super-block per step, its
// eight scales and eight offsets decoded from the block as one vector each;
// per sub-block Σ x·q into 16 lanes, then s·p into the row's accumulator
// (four partial sums); −o·xs into a vector of the eight sub-blocks carried
// across the row; the activation's sub-block sums once per call.
// Steps: lib/two-level.mlir (@two_level_f32_strategy), lib/decode.mlir
// (the vectorization); docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @two_level_f32_strategy(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @two_level_f32_after_bufferization(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @two_level_f32_strategy failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @two_level_f32_after_bufferization failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
