// Execution test of the 256-bit integer decode strategy
// (transforms/decode-int8.mlir, picked for AVX-VNNI targets without
// AVX-512: --mcpu=alderlake) on 1 and 2 threads, 8 and 86 groups. The bench
// draws activations the per-group int8 quantization represents exactly, so
// the kernel owes the f32 reference's sums (tolerance 1e-5); on random
// activations (=false) the error is the activation's int8 rounding, ~3e-3
// (docs/numerics.md): accepted within 1e-2, and it must be 1e-3 or more
// (less would mean the activation was not quantized).
// The two thread counts give the same bits.
// REQUIRES: avxvnni
// RUN: %gen_kernel 96 8 128 > %t.mlir
// RUN: qforge-bench %t.mlir --mcpu=alderlake --int8-activations --threads=1 --verify --time=false --save-results=%t.one --json | FileCheck %s --check-prefixes=EXACT,ONE
// RUN: qforge-bench %t.mlir --mcpu=alderlake --int8-activations --threads=2 --verify --time=false --save-results=%t.two --json | FileCheck %s --check-prefixes=EXACT,TWO
// RUN: cmp %t.one %t.two
// RUN: %gen_kernel 24 86 128 > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --mcpu=alderlake --int8-activations --threads=2 --verify --exact-int8-activations=false --tolerance=1e-2 --time=false --json | FileCheck %s --check-prefixes=CHECK,TWO

// EXACT: verify: max_abs_err {{.*}}, normalized {{[0-9.]+}}e-{{0[6-9]|[1-9][0-9]}} (max |ref| {{.*}}, tolerance 1e-05): PASS
// CHECK: verify: max_abs_err {{.*}}, normalized {{0\.00[1-9][0-9]*}} (max |ref| {{.*}}, tolerance 0.01): PASS
// ONE: "threads":1,"verified":true
// TWO: "threads":2,"verified":true
