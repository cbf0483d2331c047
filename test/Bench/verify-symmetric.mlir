// Execution test: the default decode strategy on symmetric quantization (no zero-point),
// JIT-compiled and compared with the scalar linalg-to-loops reference on
// deterministic random inputs; normalized error max|out - ref| / max|ref|
// must stay within 1e-5.
// RUN: %gen_kernel 32 4 128 --no-zero-point > %t.mlir
// RUN: qforge-bench %t.mlir --verify --tolerance=1e-5 --time=false --json | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS
// CHECK: {"func":"quantized_matmul","threads":1,"verified":true,
