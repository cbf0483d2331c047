// qforge-specialize-token-count{sizes=...}: a quantized matmul whose token
// count is dynamic (outlined first) gets private static copies
// @<f>_m<size>, which the driver gives their strategies and calls from the
// token dispatch; the dynamic function stays.
// RUN: %gen_kernel 32 4 128 --dynamic > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=1,8 | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:    tensor<1x?x4x128xf32>) -> tensor<1x?x32xf32>
// CHECK:         call @quantized_matmul_qmm0(
// CHECK-LABEL: func.func private @quantized_matmul_qmm0(%arg0: tensor<1x?x4x128xf32>
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m8(%arg0: tensor<1x8x4x128xf32>, %arg1: tensor<32x4x128xi8>, %arg2: tensor<32x4x1xf32>, %arg3: tensor<32x4x1xf32>) -> tensor<1x8x32xf32>
// CHECK-NOT:     ?x
// CHECK:         "reduction", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<1x8x4x128xf32>, tensor<32x4x128xf32>) outs(%{{.+}} : tensor<1x8x32xf32>)
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m1(%arg0: tensor<1x1x4x128xf32>
// CHECK-SAME:    -> tensor<1x1x32xf32>

// A size below 1 is refused at the function.
// RUN: not qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: a token count of 0 (qforge-specialize-token-count sizes)

// A static kernel has nothing to specialize.
// RUN: %gen_kernel 32 4 128 > %t.static.mlir
// RUN: qforge-opt %t.static.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=8 | FileCheck %s --check-prefix=STATIC
// STATIC-NOT: _m8
