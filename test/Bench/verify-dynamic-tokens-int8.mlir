// A dynamic token count with int8 activations: the int8 decode (M = 1) and
// the int8 prefill (the chunks) pack the weights alike (rows by 32, k by 4:
// two 64-byte lines per k step), so one <f>_pack_weights serves every M
// (it was refused: "pack its parameters differently"). 8- and 4-bit
// weights, verified at the f32 tolerance on activations int8 represents
// exactly, at M = 1 (the decode path), 3 (rows the chunks leave), 17 and
// 129 (whole chunks and a remainder).
// REQUIRES: avx2
// RUN: %gen_kernel 96 2 64 --dynamic > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --verify --time=false --dim=M=1,3,17,129 2>&1 | FileCheck %s
// RUN: %gen_kernel 96 2 64 --dynamic --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --int8-activations --verify --time=false --dim=M=1,3,17,129 2>&1 | FileCheck %s
// CHECK-COUNT-4: verify: {{.*}}tolerance 1e-05): PASS

// One packing: the M = 1 path and the chunks take the same packed tensors.
// RUN: qforge-compile %t.mlir --int8-activations --emit=mlir -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @quantized_matmul(%{{.+}}: tensor<3x2x16x32x4xi8>, %{{.+}}: tensor<3x2x1x32x1xf32>, %{{.+}}: tensor<3x2x1x32x1xf32>, %{{.+}}: tensor<1x?x2x64xf32>)
// IR-COUNT-1: func.func @quantized_matmul_pack_weights(
// IR-DAG: func.func private @quantized_matmul_qmm0_m1(%{{.+}}: tensor<3x2x16x32x4xi8>
// IR-DAG: func.func private @quantized_matmul_qmm0_m16(%{{.+}}: tensor<3x2x16x32x4xi8>
