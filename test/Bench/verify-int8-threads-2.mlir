// Execution test of the integer decode strategy (int8 activations, vpdpbusd)
// on 2 thread(s): against the f32 scalar reference the normalized error is
// the activation's int8 rounding, ~3e-3 (docs/numerics.md); accepted within
// 1e-2, and it must not be below 1e-4 either (it would mean the activation
// was not quantized).
// REQUIRES: avx512vnni
// RUN: %gen_kernel 96 8 128 > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --threads=2 --verify --tolerance=1e-2 --time=false --json | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{0\.00[1-9][0-9]*}} (max |ref| {{.*}}, tolerance 0.01): PASS
// CHECK: "threads":2,"verified":true
