// Execution test of the packed prefill strategy (transforms/prefill-f32.mlir,
// row prefill-f32/avx512) against the scalar reference, normalized error within 1e-5,
// on shapes where neither tile divides: 13 activation rows (the 8-token
// tile balanced to two blocks of 7: one zero row), 100 weight rows (tiles
// of 64: padded with 28 zero rows), signed weights, on 1 and 2 threads;
// 16 x 128 where both divide; 2 and 17 rows (one block of 2; three of 6); and a single row (the
// decode form, one block of 2 with a zero row). And its Intel twin.
// RUN: %gen_kernel 100 5 64 --batch 13 --signed > %t.pad.mlir
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: %gen_kernel 128 3 32 --batch 16 > %t.exact.mlir
// RUN: qforge-bench %t.exact.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 --batch 2 > %t.2.mlir
// RUN: qforge-bench %t.2.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 --batch 17 > %t.17.mlir
// RUN: qforge-bench %t.17.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// The Intel twin (12 tokens x 32 rows): the padded 13 rows (2 tiles of 7),
// 2 threads, M = 17 (2 tiles of 9).
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: qforge-bench %t.17.mlir --strategy-row=prefill-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 > %t.one.mlir
// RUN: qforge-bench %t.one.mlir --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// CHECK: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: {{.*}}: PASS
