// Batches (a static M > 1, or a dynamic one through the driver's chunks)
// with f32 activations, on the two-level form of llama.cpp's K-quants
// (docs/gguf.md): one token per iteration of an scf.for
// (@tile_tokens_one_at_a_time), each iteration the M = 1 decode of
// decode-two-level-f32.mlir (@two_level_f32_strategy): the rows split
// between the threads.
// The blocks are read once per token: from the caches at 4096x4096 and
// below, and a token costs what a hot decode does (no reuse of a decoded
// block across tokens yet; docs/gguf.md says what this leaves).
// Steps: lib/two-level.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @tile_tokens_one_at_a_time(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @two_level_f32_strategy(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @two_level_f32_after_bufferization(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @tile_tokens_one_at_a_time failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.include @two_level_f32_strategy failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @two_level_f32_after_bufferization failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
