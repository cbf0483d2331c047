// Packed integer decode strategy (batch-1 group-quantized matvec) for
// AVX-512 VNNI CPUs: decode-packed-avx512.mlir's data tiling shaped for
// vpdpbusd, the activation quantized per group to int8 (opt-in,
// docs/numerics.md); unsigned 8-bit weights. Packed: weights
// N/16 x G x K/4 x 16 x 4 (a 64-byte line = 16 rows x 4 bytes of k, one
// vpdpbusd operand), scales and zero-points N/16 x G x 1 x 16 x 1; N and K
// padded with zeros. Steps: lib/packed.mlir, docs/scripts.md.
//
// What sets the numbers:
//   rows = 16     the lanes of one 512-bit vpdpbusd (16 x i32).
//   k tile = 4    the bytes one i32 lane sums.
//   unroll 32     k steps (64 bytes each): the whole group, up to 128 k
//                 (the largest divisor of the group's k steps up to 32), so
//                 that its chain of vpdpbusd is split in 4 independent sums
//                 (@vectorize_packed_int8) without a loop-carried one.
//   prefetch 1    one group ahead, locality 3 (L1) like the f32 packed
//                 strategy (docs/benchmarks.md).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @bubble_and_prepack(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @quantize_and_factor_packed_decode(%kernel: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_row_tiles_and_fold(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_int8_decode_k_steps(%kernel: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @prefetch_next_group_int8(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly}) -> !transform.any_op
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    // The result's unpack (16 does not divide N: padded rows cut) one row
    // tile at a time: vectorized whole, it is one N-wide vector the
    // lowering takes over a minute on (N = 4100).
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %kernel : (!transform.any_op) -> !transform.any_op
    transform.foreach %unpack : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %tile, %loop = transform.structured.tile_using_for %one tile_sizes [0, 0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %k_loop = transform.include @tile_int8_decode_k_steps failures(propagate) (%folded)
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.unroll_dividing %k_loop {at_most = 32} : !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    transform.yield
  }

  // After bufferization: the prefetch of the next group's weight tile, then
  // one vpdpbusd per k step and the remaining reductions.
  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    %func = transform.include @prefetch_next_group_int8 failures(propagate) (%module, %rows)
      : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}
