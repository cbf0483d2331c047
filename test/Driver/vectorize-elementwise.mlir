// qforge-vectorize-elementwise: outside the quantized matmuls (here after
// outlining them), every all-parallel linalg op is tiled to rows of at
// most 64 elements (a divisor: 128 -> 2 x 64) and vectorized; the
// functions holding a matmul are left to their strategy.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --mlp-only --name mlp > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-vectorize-elementwise | FileCheck %s

// CHECK-LABEL: func.func @mlp(
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %{{.+}} = %c0{{.*}} to %c128{{.*}} step %c64
// CHECK:           vector.transfer_read {{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK:           math.exp {{.*}} : vector<64xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<64xf32>, tensor<64xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return
// CHECK-LABEL: func.func private @mlp_qmm2(
// CHECK:         linalg.generic
// CHECK-NOT:     vector.transfer_read
// CHECK:         return
