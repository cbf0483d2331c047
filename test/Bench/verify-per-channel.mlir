// Execution test: one group per row of K = 4096 (per-channel scales and
// zero-points, as int8 exporters emit) on every path the driver
// chooses -- f32 and int8 activations, unpacked and packed weights, 8-bit
// and 4-bit -- against the scalar reference within 1e-5. The per-call work
// on the activation (its sums, its int8 quantization) goes a block of at
// most 256 elements at a time: vectorized a whole group at a time, the
// 4096-long group was one block of straight-line code that LLVM's code
// generation did not finish within the 30 s bound.
// RUN: %gen_kernel 64 1 4096 > %t.mlir
// RUN: qforge-bench %t.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.mlir --packed-weights --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.mlir --packed-weights --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 64 1 4096 --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.mlir --packed-weights --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// The prefill strategies, f32 and int8 activations: one block of 3 tokens,
// and 17 tokens in two blocks, the second one partly padding (its values
// read under a mask). The integer prefill with one group per row was
// refused: its blocks' per-group values (vector<9x1> cast to vector<9>)
// did not lower, and a 4-bit row's activation work, whole, was one
// vector<2048x2> LLVM did not compile within 30 s.
// RUN: %gen_kernel 64 1 4096 --batch 3 > %t.m3.mlir
// RUN: %gen_kernel 64 1 4096 --batch 17 > %t.m17.mlir
// RUN: %gen_kernel 64 1 4096 --batch 3 --int4 > %t.int4.m3.mlir
// RUN: %gen_kernel 64 1 4096 --batch 17 --int4 > %t.int4.m17.mlir
// RUN: qforge-bench %t.m3.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.m17.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.m3.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.m17.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.m3.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.m17.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.m3.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.int4.m17.mlir --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// CHECK: verify: {{.*}}: PASS
