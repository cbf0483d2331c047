// Execution test of the packed prefill strategy for 4-bit weights
// (transforms/prefill-int4-f32.mlir) against the scalar reference,
// normalized error within 1e-5: 13 activation rows (two blocks of 7) by 100
// weight rows (padded to 128), signed and unsigned nibbles, 1 and 2
// threads; 16 x 128 where both tiles divide; 2 and 17 rows (one block of
// 2; three of 6); a single activation row; the Intel twins.
// REQUIRES: avx512f
// RUN: %gen_kernel 100 5 64 --batch 13 --int4 --signed > %t.pad.mlir
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: %gen_kernel 128 3 32 --batch 16 --int4 > %t.exact.mlir
// RUN: qforge-bench %t.exact.mlir --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 --batch 2 --int4 > %t.2.mlir
// RUN: qforge-bench %t.2.mlir --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 --batch 17 --int4 > %t.17.mlir
// RUN: qforge-bench %t.17.mlir --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// The Intel twin (12 tokens x 32 rows): the padded 13 rows (2 tiles of 7),
// 2 threads, M = 17 (2 tiles of 9).
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-f32/intel-12x32 --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: qforge-bench %t.17.mlir --strategy-row=prefill-int4-f32/intel-12x32 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// The 64-row tiles with nibble tables (Intel, M < 6 and a dynamic M): the
// padded signed 13 rows on 2 threads, M = 2, a dynamic M of 1-5, 10 and 17
// (every path for the rows left),
// and compiled for Haswell (no AVX-512: each lookup expanded back).
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-f32/intel-64-rows --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: qforge-bench %t.2.mlir --strategy-row=prefill-int4-f32/intel-64-rows --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 --batch 8 --dynamic --int4 > %t.dyn.mlir
// RUN: qforge-bench %t.dyn.mlir --strategy-row=prefill-int4-f32/intel-64-rows --verify --tolerance=1e-5 --time=false --dim M=1,2,3,4,5,10,17 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-f32/intel-64-rows --mcpu=haswell --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// DYN-COUNT-7: verify: {{.*}}: PASS
// RUN: %gen_kernel 100 5 64 --int4 > %t.one.mlir
// RUN: qforge-bench %t.one.mlir --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// CHECK: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: {{.*}}: PASS
