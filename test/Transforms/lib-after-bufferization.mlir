// The sequence of transforms/lib/after-bufferization.mlir run alone,
// through an entry point of this file, on the tensor IR of the integer
// decode strategies (the patterns do not need the bufferized form; the
// driver runs them after bufferization because the vpdpbusd intrinsic call
// they make is not accepted by bufferization's analysis, and the flattening
// of the activation's vectors needs memrefs: on tensors it leaves them, and
// test/Driver/decode-loop-mix.mlir pins what it does to the quantization).
// RUN: %gen_kernel 64 2 128 > %t.mlir
// RUN: qforge-opt %t.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_x86_int8_dot_products_and_reductions \
// RUN:   | FileCheck %s --check-prefix=UNPACKED --implicit-check-not=vector.multi_reduction
// RUN: qforge-opt %t.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_x86_int8_dot_products_and_reductions_packed \
// RUN:   | FileCheck %s --check-prefix=PACKED --implicit-check-not=vector.multi_reduction --implicit-check-not=vector.shape_cast
// RUN: %gen_kernel 64 2 128 --int4 | qforge-opt --qforge-store-int4-as-byte-pairs > %t.int4.mlir
// RUN: qforge-opt %t.int4.mlir --transform-preload-library=transform-library-paths=%transforms/lib,%s \
// RUN:   --transform-interpreter=entry-point=test_x86_nibble_tables \
// RUN:   | FileCheck %s --check-prefix=NIBBLES --implicit-check-not="xi4> to vector"

// @x86_int8_dot_products_and_reductions, unpacked integer decode: each
// 16 x 4 byte product summed over the 4 bytes (the two steps of a group)
// is one vpdpbusd; the activation's per-group maximum and the rows' sums
// become reassociable reductions. The activation's per-lane sums (Σxq over
// a lane's 4 bytes, in f32) are vpdpbusd from zero with bytes of 1, then
// converted and added.
// UNPACKED-LABEL: func.func @quantized_matmul
// UNPACKED-DAG:   %[[ZERO:.+]] = arith.constant dense<0> : vector<16xi32>
// UNPACKED-DAG:   %[[ONES:.+]] = arith.constant dense<1> : vector<64xi8>
// UNPACKED:       vector.reduction <maxui>, %{{.+}}, %{{.+}} : vector<128xi32> into i32
// UNPACKED:       %[[XSUM:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ZERO]], %[[ONES]], %{{.+}})
// UNPACKED-NEXT:  %[[XSUMF:.+]] = arith.sitofp %[[XSUM]] : vector<16xi32> to vector<16xf32>
// UNPACKED-NEXT:  arith.addf %{{.+}}, %[[XSUMF]] : vector<16xf32>
// UNPACKED:       scf.forall
// UNPACKED:       %[[ACC:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// UNPACKED:       llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %{{.+}}, %{{.+}})
// UNPACKED:       vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32

// @x86_nibble_tables, 4-bit decode with f32 activations
// (decode-packed-int4-f32.mlir): each 64-byte line widened to 32-bit
// lanes, its low nibbles looked up directly and its high ones after a shift
// by 4, 16 lanes per vpermps, in the table of the 16 nibble values; no
// nibble is converted with uitofp any more (implicit check).
// NIBBLES-LABEL: func.func @quantized_matmul(
// NIBBLES-DAG:   %[[FOUR:.+]] = arith.constant dense<4> : vector<64xi32>
// NIBBLES-DAG:   %[[TABLE:.+]] = arith.constant dense<[0.000000e+00, {{.*}}, 1.500000e+01]> : vector<16xf32>
// NIBBLES:       scf.for
// NIBBLES:       %[[LOW:.+]] = arith.extui %[[BYTES:.+]] : vector<64xi8> to vector<64xi32>
// NIBBLES:       %[[L0:.+]] = vector.extract_strided_slice %[[LOW]] {offsets = [0]
// NIBBLES:       llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[L0]]) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
// NIBBLES-COUNT-3: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %{{.+}})
// NIBBLES:       %[[WIDE:.+]] = arith.extui %[[BYTES]] : vector<64xi8> to vector<64xi32>
// NIBBLES-NEXT:  %[[HIGH:.+]] = arith.shrui %[[WIDE]], %[[FOUR]] : vector<64xi32>
// NIBBLES:       %[[H0:.+]] = vector.extract_strided_slice %[[HIGH]] {offsets = [0]
// NIBBLES:       llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[H0]])
// NIBBLES-LABEL: func.func @quantized_matmul_pack_weights(

// Packed integer decode: the per-group activation reductions reassociable,
// one vpdpbusd per k step, the shape casts around it gone.
// PACKED-LABEL: func.func @quantized_matmul(
// PACKED:       vector.reduction <maxui>, %{{.+}}, %{{.+}} : vector<128xi32> into i32
// PACKED:       vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<128xf32> into f32
// PACKED:       llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>

module attributes {transform.with_named_sequence} {
  transform.named_sequence @x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @decode_int8_16_lanes(%module: !transform.any_op {transform.readonly})
  transform.named_sequence @match_and_simplify_dequant(%root: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @bubble_and_prepack(%module: !transform.any_op {transform.readonly}, %packed: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @quantize_and_factor_packed_decode(%kernel: !transform.any_op {transform.readonly}) -> (!transform.any_op, !transform.any_op)
  transform.named_sequence @tile_row_tiles_and_fold(%partials: !transform.any_op {transform.consumed}, %groups: !transform.any_op {transform.consumed}) -> !transform.any_op
  transform.named_sequence @tile_int8_decode_k_steps(%kernel: !transform.any_op {transform.readonly}) -> !transform.any_op
  transform.named_sequence @vectorize_packed_int8(%kernel: !transform.any_op {transform.consumed})
  transform.named_sequence @decode_packed_int4_f32(%module: !transform.any_op {transform.readonly}, %rows: !transform.param<i64> {transform.readonly}, %unpack_rows: !transform.param<i64> {transform.readonly})
  transform.named_sequence @x86_nibble_tables(%module: !transform.any_op {transform.readonly})

  // The unpacked integer decode strategy (decode-int8.mlir), then
  // the sequence.
  transform.named_sequence @test_x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly}) {
    transform.include @decode_int8_16_lanes failures(propagate) (%module) : (!transform.any_op) -> ()
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // The packed integer decode strategy (decode-packed-int8.mlir),
  // then the sequence.
  transform.named_sequence @test_x86_int8_dot_products_and_reductions_packed(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.include @match_and_simplify_dequant failures(propagate) (%module)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %kernel = transform.include @bubble_and_prepack failures(propagate) (%module, %packed)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %partials, %groups = transform.include @quantize_and_factor_packed_decode failures(propagate) (%kernel)
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %folded = transform.include @tile_row_tiles_and_fold failures(propagate) (%partials, %groups)
      : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %k_loop = transform.include @tile_int8_decode_k_steps failures(propagate) (%folded)
      : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_packed_int8 failures(propagate) (%folded) : (!transform.any_op) -> ()
    %func = transform.include @x86_int8_dot_products_and_reductions failures(propagate) (%module)
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  // The 4-bit decode strategy with f32 activations
  // (decode-packed-int4-f32.mlir), then the sequence.
  transform.named_sequence @test_x86_nibble_tables(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.include @decode_packed_int4_f32 failures(propagate) (%module, %rows, %rows)
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.include @x86_nibble_tables failures(propagate) (%module) : (!transform.any_op) -> ()
    transform.yield
  }
}
