// Assembly for an AVX-512 CPU (named, so the test does not depend on the
// host): per 16 weights a zero-extension, one int-to-float convert and one
// FMA on zmm registers; no scalar element inserts or extracts anywhere.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: qforge-compile %t.mlir --emit=asm --mcpu=sapphirerapids -o - | FileCheck %s

// CHECK-LABEL: quantized_matmul:
// CHECK:         vpmovzxbd {{.*}}, %zmm[[W:[0-9]+]]
// CHECK-NEXT:    vcvtdq2ps %zmm[[W]], %zmm[[WF:[0-9]+]]
// CHECK-NEXT:    vfmadd{{[0-9]+}}ps {{.*}}%zmm[[WF]]
// CHECK:         prefetcht0
// CHECK-NOT:     vpinsr
// CHECK-NOT:     vpextr
// CHECK-NOT:     vinsertps
// CHECK-LABEL: _mlir_ciface_quantized_matmul:
