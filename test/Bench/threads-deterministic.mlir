// The decode strategy's rows run on OpenMP threads: with 1 and 2 threads the
// kernel verifies against the scalar reference, and the two results are
// identical bit for bit (each row is computed by one thread, in a fixed
// order).
// RUN: %gen_kernel 100 6 128 > %t.mlir
// RUN: qforge-bench %t.mlir --verify --time=false --threads=1 --save-results=%t.one --json | FileCheck %s --check-prefix=ONE
// RUN: qforge-bench %t.mlir --verify --time=false --threads=2 --save-results=%t.two --json | FileCheck %s --check-prefix=TWO
// RUN: cmp %t.one %t.two

// ONE: verify: {{.*}}: PASS
// TWO: verify: {{.*}}: PASS
