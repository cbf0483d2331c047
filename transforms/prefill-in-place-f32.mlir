// Batches (a static M > 1, or a dynamic M's chunks) of blocks read in place
// with f32 activations (GGUF's q8_0: examples/gen_gguf_kernel.py q8_0 N K
// --batch M | --dynamic; docs/gguf.md): one token per iteration of an
// scf.for (@tile_canonical_tokens_one_at_a_time), each iteration the M = 1
// decode of decode-f32.mlir (@decode_f32) with its row's numbers. The
// blocks are read once per token (from the caches at 4096x4096 and below):
// a token costs about a hot decode.
// Steps: lib/decode.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tile_canonical_tokens_one_at_a_time(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_f32(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_f32_after_bufferization(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @tile_canonical_tokens_one_at_a_time failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.include @decode_f32 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_f32_after_bufferization failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
