// Execution test of the integer decode strategy with 86 groups (the LLaMA
// down-projection's group count) on 2 threads, on activations int8
// represents exactly: the f32 tolerance applies.
// REQUIRES: avx2
// RUN: %gen_kernel 40 86 128 > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --threads=2 --verify --time=false | FileCheck %s
// CHECK: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS
