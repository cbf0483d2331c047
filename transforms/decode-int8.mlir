// Decode (M = 1) with int8 activations: the activation quantized per group
// to int8 once per call meets the u8 weights in vpdpbusd (AVX-VNNI's VEX
// form, or on AVX2 its exact vpmaddubsw + vpmaddwd expansion); ~3e-3
// normalized error (docs/numerics.md). The row's numbers (strategy-table.json,
// family decode-int8):
//   lanes_8          0: 16 i32 lanes of 512-bit steps (64 weights), 1: 8 lanes
//   chains           the row's sum over groups as this many partial sums
//   prefetch_into_l1 0: the next row prefetched into L2 once it reads at least
//                    prefetch_min_read_bytes per step, 1: into L1
// Steps: lib/decode.mlir, lib/after-bufferization.mlir; docs/scripts.md.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @decode_int8_8_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @split_group_sums(%module: !transform.any_op {transform.readonly}, %chains: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_row_int8_into_l1(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %lanes_8 = transform.qforge.strategy_param "lanes_8" in %module : (!transform.any_op) -> !transform.param<i64>
    %chains = transform.qforge.strategy_param "chains" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"lanes_8"> selected_region = %lanes_8 : !transform.param<i64> {
      transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }, {
      transform.include @decode_int8_8_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.include @split_group_sums failures(propagate) (%module, %chains) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %into_l1 = transform.qforge.strategy_param "prefetch_into_l1" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.tune.alternatives<"prefetch_into_l1"> selected_region = %into_l1 : !transform.param<i64> {
      %step_bytes = transform.qforge.strategy_param "prefetch_min_read_bytes" in %module : (!transform.any_op) -> !transform.param<i64>
      transform.include @prefetch_next_row_int8 failures(propagate) (%module, %step_bytes) : (!transform.any_op, !transform.param<i64>) -> ()
    }, {
      transform.include @prefetch_next_row_int8_into_l1 failures(propagate) (%module) : (!transform.any_op) -> ()
    }
    transform.yield
  }
}
