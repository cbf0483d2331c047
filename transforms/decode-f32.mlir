// Decode (M = 1) with f32 activations, on the seed form: one weight row per
// iteration of the threads' scf.forall, in blocks of groups; per vector of
// weights one convert and one FMA; scale and zero-point once per group.
// The row's numbers (strategy-table.json, family decode-f32):
//   lanes_8    0: 16 f32 lanes (AVX-512), 1: 8 lanes (AVX2 + FMA)
//   prefetch   1: the next row's weights, scales and zero-points prefetched,
//              one prefetch per 64-byte line, while this row is multiplied
// Steps: lib/decode.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_f32_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_f32_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %lanes_8 = transform.qforge.strategy_param "lanes_8" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"lanes_8"> selected_region = %lanes_8 : !transform.param<i64> {
      transform.include @decode_f32_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }, {
      transform.include @decode_f32_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %prefetch = transform.qforge.strategy_param "prefetch" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"prefetch"> selected_region = %prefetch : !transform.param<i64> {
    }, {
      %row_loop = transform.structured.match ops{["scf.forall"]} attributes{qforge.weight_rows} in %module
        : (!transform.any_op) -> !transform.any_op
      transform.qforge.prefetch_reads_ahead %row_loop {iterations = 1, line_bytes = 64} : !transform.any_op
    }
    transform.yield
  }
}
