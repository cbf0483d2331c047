// The factored strategy applies the zero-point once per group, not per
// weight: in the group loop, 8 chunks of 16 weights are converted and
// multiply-added (8 uitofp), and a single subtract (p - z*xs) follows.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul
// CHECK:         scf.for {{.*}} -> (vector<1x1x1x16xf32>)
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.subf
// CHECK:           arith.uitofp %{{.+}} : vector<16xi8> to vector<16xf32>
// CHECK-NOT:       arith.uitofp
// CHECK:           arith.subf
// CHECK-NOT:       arith.subf
// CHECK:           scf.yield
