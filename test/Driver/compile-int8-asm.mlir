// The integer decode strategy on an AVX512-VNNI CPU: per group and row, two
// vpdpbusd (64 weight bytes each, unsigned) against the int8 activation, one
// int-to-float convert of the i32 partial sums, the zero-point term and the
// scale as two FMAs -- no per-weight zero-extension or convert.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: qforge-compile %t.mlir --strategy-row=decode-int8/16-lanes --mcpu=sapphirerapids --emit=asm -o - | FileCheck %s

// CHECK-LABEL: quantized_matmul..omp_par:
// CHECK:         vpdpbusd {{.*}}%zmm[[ACC:[0-9]+]]
// CHECK-NOT:     vpmovzxbd
// CHECK:         vpdpbusd {{.*}}%zmm[[ACC]]
// CHECK-NOT:     vpmovzxbd
// CHECK:         vcvtdq2ps %zmm[[ACC]]
// CHECK:         vfnmadd{{[0-9]+}}ps
// CHECK:         vfmadd{{[0-9]+}}ps
