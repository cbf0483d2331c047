// Decode (M = 1) with int8 activations, on the two-level form of llama.cpp's
// K-quants (examples/gen_gguf_kernel.py q4_K|q5_K|q6_K; docs/gguf.md): the
// activation quantized to int8 per sub-block (32 elements; q6_K's 16), once
// per call, with its sub-block sums times amax/127. One weight row per
// iteration of the threads' scf.forall, one super-block per step: its
// scales (times the activation's amax/127) and offsets decoded from the
// block as one vector each; per slice of sub-blocks whose bytes are
// contiguous (the lane group: q4_K's and q5_K's two 32-byte chunks of one
// 64-byte slice, q6_K's two 16-byte halves) its quants times the
// activation bytes (stored in the same order) as one vpdpbusd (q4_K:
// 512-bit, 16 i32 lanes x 4 bytes; q6_K: 256-bit), then sa·p into the
// row's accumulator of as many lanes (four partial sums); −o·xs into a
// vector of the sub-blocks carried across the row.
// Steps: lib/two-level.mlir (@two_level_int8_strategy), lib/decode.mlir,
// lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @two_level_int8_strategy(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @two_level_int8_after_bufferization(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @two_level_int8_strategy failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @two_level_int8_after_bufferization failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
