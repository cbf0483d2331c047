// Row 1 of the reliability issue's fuzz table: a batched kernel whose
// result starts at 1.0, through the int8 decode script, used to loop in an
// upstream vector rewrite (> 20 s, growing). The fixed lowering now stops
// on what it cannot reduce (the batched rows the decode script leaves as a
// 2-D vector) with a diagnostic at the op that leaves it (the matvec, not
// a constant it uses), well within the compile guard's 3 s here, and no
// object is left.
// The target is given: the script is the AVX-512 one, on any host.
// RUN: %gen_kernel 64 1 64 --batch 4 --no-zero-point | sed 's/%%zero = arith.constant 0.000000e+00 : f32/%%zero = arith.constant 1.000000e+00 : f32/' > %t.mlir
// RUN: not qforge-compile %t.mlir --strategy-row=decode-int8/16-lanes --mcpu=sapphirerapids --compile-timeout=3 --emit=obj -o %t.o 2>&1 | FileCheck %s
// CHECK: {{.*}}.mlir:25:13: error: vector lowering did not converge (the script leaves vector forms the fixed lowering cannot reduce to rank 1; docs/lowering.md); here a 'vector<4x1x64xf32>' is left
// CHECK-NEXT: %matvec = linalg.generic
// CHECK-NOT: did not finish within
// CHECK: qforge-compile: error: lowering to the LLVM dialect failed (see above)
// RUN: not ls %t.o
