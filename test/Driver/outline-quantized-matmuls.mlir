// qforge-outline-quantized-matmuls: each quantized matmul (its
// dequantization, fill and contraction, and the reshapes of arguments only
// they read) moves into a private @<f>_qmm<i> that the parent calls; the
// silu and product between the matmuls stay in the parent. The driver does
// this before giving each matmul its own strategy.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --mlp-only --name mlp > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls | FileCheck %s

// CHECK-LABEL: func.func @mlp(
// CHECK:         %[[GATE:.+]] = call @mlp_qmm0(%arg0, %arg2, %arg3, %arg1) : (tensor<64xf32>, tensor<128x2xf32>, tensor<128x2xf32>, tensor<128x2x32xi8>) -> tensor<1x1x128xf32>
// CHECK:         %[[UP:.+]] = call @mlp_qmm1(%arg0, %arg5, %arg6, %arg4)
// CHECK-NOT:     "reduction"
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK-NOT:     "reduction"
// CHECK:         call @mlp_qmm2(
// CHECK-NOT:     "reduction"
// CHECK:         return

// CHECK-LABEL: func.func private @mlp_qmm2(%arg0: tensor<64x4xf32>, %arg1: tensor<64x4xf32>, %arg2: tensor<64x4x32xi8>, %arg3: tensor<1x1x4x32xf32>) -> tensor<1x1x64xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         linalg.fill
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK:         return
// CHECK-LABEL: func.func private @mlp_qmm1(
// CHECK-LABEL: func.func private @mlp_qmm0(
// CHECK-SAME:    -> tensor<1x1x128xf32>
// CHECK:         linalg.fill
// CHECK:         "reduction", "reduction"
