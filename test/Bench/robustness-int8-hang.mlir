// Row 1 of the reliability issue's fuzz table: a batched kernel whose
// result starts at 1.0, through the int8 decode script, used to loop in an
// upstream vector rewrite (> 20 s, growing); the compile guard stops it
// with a diagnostic naming the phase, and no object is left.
// REQUIRES: avx512vnni
// RUN: %gen_kernel 64 1 64 --batch 4 --no-zero-point | sed 's/%%zero = arith.constant 0.000000e+00 : f32/%%zero = arith.constant 1.000000e+00 : f32/' > %t.mlir
// RUN: not qforge-compile %t.mlir --script=%transforms/decode-int8-vnni.mlir --compile-timeout=3 --emit=obj -o %t.o 2>&1 | FileCheck %s
// CHECK: qforge-compile: error: {{.*}}.mlir: {{.*}}@quantized_matmul{{.*}} did not finish within 3 s (--compile-timeout)
// RUN: not ls %t.o
