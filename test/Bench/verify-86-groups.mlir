// Execution test: the default decode strategy on 86 groups of 128 (the
// LLaMA down-projection's group count), which it runs in two blocks of 43
// groups, JIT-compiled and compared with the scalar linalg-to-loops
// reference on deterministic random inputs; normalized error max|out - ref| /
// max|ref| must stay within 1e-5, on 1 and 2 threads, and the two thread
// counts give the same bits (each row is summed in the same order). The
// AVX2 version of the strategy (8 lanes, same blocks) is checked too; it
// runs on any AVX2 host.
// REQUIRES: avx2
// RUN: %gen_kernel 24 86 128 > %t.mlir
// RUN: qforge-bench %t.mlir --verify --tolerance=1e-5 --time=false --threads=1 --save-results=%t.one --json | FileCheck %s --check-prefixes=CHECK,ONE
// RUN: qforge-bench %t.mlir --verify --tolerance=1e-5 --time=false --threads=2 --save-results=%t.two --json | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: cmp %t.one %t.two
// RUN: qforge-bench %t.mlir --strategy-row=decode-f32/8-lanes --verify --tolerance=1e-5 --time=false --threads=2 --json | FileCheck %s --check-prefixes=CHECK,TWO

// CHECK: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS
// ONE: {"func":"quantized_matmul","threads":1,"verified":true,
// TWO: {"func":"quantized_matmul","threads":2,"verified":true,
