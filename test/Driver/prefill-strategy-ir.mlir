// The packed prefill strategy after the script (--emit=mlir) on 13
// activation rows and 100 weight rows (neither tile divides): the kernel
// takes the pre-packed weights (2 tiles of 64 rows, zero-padded by
// @quantized_matmul_pack_weights) and packs only the activation per call,
// in blocks of 8 rows padded with zeros; the k loop carries an 8 x 64
// register block (8 activation rows x 64 weight rows), and the result's
// unpack cuts the padding.
// RUN: %gen_kernel 100 5 64 --batch 13 > %t.mlir
// RUN: qforge-compile %t.mlir --script=%transforms/prefill-packed-avx512.mlir --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:    tensor<2x5x64x64xi8>
// CHECK-SAME:    tensor<1x13x5x64xf32>) -> tensor<1x13x100xf32> attributes {qforge.pack_weights = @quantized_matmul_pack_weights}
// CHECK:         linalg.pack %{{.*}} padding_value(%{{.*}} : f32) inner_dims_pos = [1] inner_tiles = [8]
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<1x1x1x1x8x64xf32>)
// CHECK:             vector.transfer_read {{.*}} : tensor<2x5x64x64xi8>, vector<64xi8>
// CHECK:             arith.uitofp {{.*}} : vector<64xi8> to vector<64xf32>
// CHECK:         linalg.unpack
// CHECK-LABEL: func.func @quantized_matmul_pack_weights(
// CHECK-COUNT-3: linalg.pack %arg{{[0-2]}} padding_value
