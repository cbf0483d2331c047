// Decode (M = 1) with f32 activations, on the seed form: one weight row per
// iteration of the threads' scf.forall, in blocks of groups; per vector of
// weights one convert and one FMA; scale and zero-point once per group.
// The row's numbers (strategy-table.json, family decode-f32):
//   lanes_8    0: 16 f32 lanes (AVX-512), 1: 8 lanes (AVX2 + FMA)
//   prefetch   1: the next row's weights, scales and zero-points prefetched,
//              one prefetch per 64-byte line, while this row is multiplied
// Steps: lib/decode.mlir (@decode_f32); docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_f32(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_f32_after_bufferization(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_after_bufferization failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
