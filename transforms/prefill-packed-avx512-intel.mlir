// prefill-packed-avx512.mlir's steps with 12 tokens x 32 rows, for Intel
// AVX-512 cores: there the weights' widening and conversion take the two
// ports the FMAs run on, so a converted weight vector must feed more
// tokens. Per k step 2 conversions (4 ops), then 12 x 2 FMAs into 24 zmm
// accumulators: 24 FMAs in 28 port slots, against 24 in 32 with 6 tokens x
// 64 rows (M = 128: 0.58 -> 0.71 of the f32 peak on an Intel Xeon,
// docs/benchmarks.md). The driver picks it for a static M of at least 6
// (fewer tokens on 32 rows leave too few accumulators for the FMA latency);
// a dynamic M's chunks share the weights with the 64-row packed decode
// (docs/scripts.md "Which script runs").
//
// What sets the numbers:
//   12 tokens x 32 rows  the pack and the result's unpack tiles; fewer
//                 tokens when M needs fewer (pack_balanced: M = 17 -> two
//                 tiles of 9).
//   k block 16, unroll 8  as every target: @prefill_packed_f32's.
//   8 blocks      from 8 blocks of tokens on (M >= 85), a row tile's
//                 weights of a group are converted to f32 once, before its
//                 blocks, whose FMAs then read them:
//                 @prefill_packed_f32_converting_weights_ahead.
//   prefetch 1    the next group's weight tile (32 rows: 32-byte reads).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @prefill_packed_f32_converting_weights_ahead(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}, %tokens: !transform.param<i64> {transform.readonly}, %rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed, %tokens, %rows = transform.qforge.pack_balanced %contraction
        packed_sizes = [0, 12, 32, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // The f32 prefill's tiles; with 8 or more blocks of tokens each row
    // tile's group of weights converted once for all of them, since here
    // the conversions take the FMAs' ports.
    transform.include @prefill_packed_f32_converting_weights_ahead failures(propagate) (%module, %packed, %tokens, %rows)
      : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }
}
