// Decode (M = 1) with int8 activations: the activation quantized per group
// to int8 once per call meets the u8 weights in vpdpbusd (AVX-VNNI's VEX
// form, or on AVX2 its exact vpmaddubsw + vpmaddwd expansion); ~3e-3
// normalized error (docs/numerics.md). The row's numbers (strategy-table.json,
// family decode-int8):
//   lanes_8          0: 16 i32 lanes of 512-bit steps (64 weights), 1: 8 lanes
//   chains           the row's sum over groups as this many partial sums
//   prefetch_into_l1 0: the next row prefetched into L2 once it reads at least
//                    prefetch_min_read_bytes per step, 1: into L1
// Steps: lib/decode.mlir (@decode_int8), lib/after-bufferization.mlir;
// docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_int8_after_bufferization(%module: !transform.any_op {transform.readonly})

  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8 failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_after_bufferization failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
