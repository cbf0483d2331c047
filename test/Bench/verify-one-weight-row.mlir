// Execution test: kernels of one weight row (N = 1) at token counts whose
// blocks of tokens leave that row's results a column, e.g. vector<8x1xf32>
// (M = 16 in blocks of 8, 20 in blocks of 10, 48), on the prefill paths
// the driver chooses -- f32 and int8 activations, 8- and 4-bit weights --
// against the scalar reference within 1e-5. The integer prefill refused
// N = 1, and the AVX-512 f32 prefill did not lower these M: in the fixed
// lowering's rounds the column's shape casts were lowered and folded back
// without end. Such transfers are now read and written rank-reduced first
// (docs/lowering.md).
// RUN: %gen_kernel 1 3 128 --batch 16 > %t.16.mlir
// RUN: %gen_kernel 1 3 128 --batch 20 > %t.20.mlir
// RUN: %gen_kernel 1 3 128 --batch 48 > %t.48.mlir
// RUN: %gen_kernel 1 3 128 --batch 20 --int4 > %t.int4.20.mlir
// RUN: qforge-bench %t.16.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.20.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.48.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.20.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.16.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.20.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.20.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// The decodes, for completeness.
// RUN: %gen_kernel 1 3 128 > %t.1.mlir
// RUN: qforge-bench %t.1.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.1.mlir --packed-weights --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// CHECK: verify: {{.*}}: PASS
