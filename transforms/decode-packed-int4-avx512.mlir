// Packed decode strategy for 4-bit weights on AVX-512 CPUs (the driver's
// choice for i4 weights): decode-packed-avx512.mlir on weights stored two
// per byte (qforge-store-int4-as-byte-pairs, docs/abi.md: contraction dims
// (1, 1, n, g, k/2, k%2)). Packed: weights N/64 x G x K/2 x 64 bytes,
// scales and zero-points N/64 x G x 1 x 64. Steps: lib/packed.mlir,
// docs/scripts.md. Compute-bound below the read bandwidth on fast memory:
// per line 4 widenings, 4 shifts and 8 table lookups (@x86_nibble_tables)
// for its 8 FMAs; decode-packed-int4-vnni.mlir is the fast one.
//
// What sets the numbers:
//   rows = 64     the lanes, as for 8-bit weights: a byte step is one
//                 64-byte line, two k steps of 4 zmm vectors (low nibbles,
//                 then high ones) into the same 4 accumulators.
//   unroll = 4    byte steps per iteration (@decode_packed_int4_f32, 8 k
//                 steps, nibbles unrolled whole); the unpack tiled by
//                 the rows too (whole, N = 4100 took LLVM 18 s).
//   prefetch 1    one group ahead (rows x K/2 bytes).
//   tables        after bufferization, each nibble's f32 value looked up
//                 in a vpermps table (@x86_nibble_tables): per 16 weights
//                 a lookup plus half a widening and half a shift, where
//                 the conversion took 3 ops or more (docs/benchmarks.md).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @decode_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @prefetch_next_group(%module: !transform.any_op {transform.readonly}, %min_read_bytes: !transform.param<i64> {transform.readonly})
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @decode_packed_int4_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  transform.named_sequence @qforge_after_bufferization(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @prefetch_next_group failures(propagate) (%module, %rows) : (!transform.any_op, !transform.param<i64>) -> ()
    transform.include @x86_nibble_tables failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
