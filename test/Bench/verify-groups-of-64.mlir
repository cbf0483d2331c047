// Execution test: the default decode strategy on groups of 64 (4 chunks of 16 lanes per group),
// JIT-compiled and compared with the scalar linalg-to-loops reference on
// deterministic random inputs; normalized error max|out - ref| / max|ref|
// must stay within 1e-5.
// RUN: %gen_kernel 40 8 64 > %t.mlir
// RUN: qforge-bench %t.mlir --verify --tolerance=1e-5 --time=false --json | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS
// CHECK: {"func":"quantized_matmul","threads":1,"verified":true,
