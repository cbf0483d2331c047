// Execution test of the integer decode strategy (int8 activations, vpdpbusd;
// on AVX2 its exact vpmaddubsw + vpmaddwd expansion) on 1 thread(s).
// By default the bench draws activations the per-group int8 quantization
// represents exactly, so the kernel owes the f32 reference's sums: the f32
// tolerance (1e-5) applies. On random activations (=false) the error is the
// activation's int8 rounding, ~3e-3 (docs/numerics.md): accepted within
// 1e-2, and it must not be below 1e-4 (it would mean the activation was not
// quantized).
// REQUIRES: avx2
// RUN: %gen_kernel 96 8 128 > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --threads=1 --verify --time=false --json 2>&1 | FileCheck %s --check-prefix=EXACT
// RUN: qforge-bench %t.mlir --int8-activations --threads=1 --verify --exact-int8-activations=false --tolerance=1e-2 --time=false --json 2>&1 | FileCheck %s --check-prefix=ROUNDED

// EXACT: verifying with activations int8 represents exactly (argument #3)
// EXACT: verify: max_abs_err {{.*}}, normalized {{[0-9.]+}}e-{{0[6-9]|[1-9][0-9]}} (max |ref| {{.*}}, tolerance 1e-05): PASS
// EXACT: "threads":1,"verified":true

// ROUNDED-NOT: int8 represents exactly
// ROUNDED: verify: max_abs_err {{.*}}, normalized {{0\.00[1-9][0-9]*}} (max |ref| {{.*}}, tolerance 0.01): PASS
// ROUNDED: "threads":1,"verified":true
