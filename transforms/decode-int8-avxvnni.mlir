// Integer decode strategy (batch-1 group-quantized matvec) for AVX2 CPUs
// with AVX-VNNI and no AVX512-VNNI (e.g. Alder Lake, Meteor Lake):
// decode-int8-vnni.mlir with 256-bit vectors, the weights meeting the
// activation in the VEX-encoded `vpdpbusd` (32 unsigned weight bytes x 32
// signed activation bytes -> 8 i32 lanes). See that script,
// lib/decode.mlir and docs/scripts.md.
//
// Accuracy: as decode-int8-vnni.mlir: verify with --tolerance=1e-2.
//
// What sets the numbers:
//   8 lanes         i32 lanes of one 256-bit vpdpbusd; each sums 4 adjacent
//                   bytes, so one step covers 32 weights. The group size
//                   must be a multiple of 32. The step loops are unrolled
//                   whole, by 4 for K = 128: both in @decode_int8_8_lanes.
//   1 row per tile  as in decode-factored-avx2.mlir.
//   prefetch 1      one row ahead, locality 2, as decode-int8-vnni.mlir,
//                   whose measurements set it; not re-measured for this
//                   256-bit loop.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @vectorize_int8_decode(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @x86_int8_dot_products(%module: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @lower_int8_row_sums(%func: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.include @vectorize_int8_decode failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }

  // Run by the driver after bufferization: the prefetch of the next row,
  // then the int8 dot products and the rows' sums.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64, locality = 2} : !transform.any_op
    %func = transform.include @x86_int8_dot_products failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.include @lower_int8_row_sums failures(propagate) (%func) : (!transform.any_op) -> ()
    transform.yield
  }
}
