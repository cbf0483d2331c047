// Execution test of the integer decode strategy with 86 groups (the LLaMA
// down-projection's group count) on 2 threads.
// REQUIRES: avx512vnni
// RUN: %gen_kernel 40 86 128 > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --threads=2 --verify --tolerance=1e-2 --time=false | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{0\.00[1-9][0-9]*}} (max |ref| {{.*}}, tolerance 0.01): PASS
