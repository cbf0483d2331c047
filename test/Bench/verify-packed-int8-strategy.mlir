// Execution test of the packed int8 decode strategy
// (transforms/decode-packed-int8.mlir, vpdpbusd) against the f32
// reference, tolerance 1e-2 (the int8 activations' error, ~3e-3-5e-3 here):
// one row tile (16 rows, padded to 32: the unit-dim fold must not drop the
// row tile's loop), 40 rows (padded to 64), 86 groups, groups of 6 (k padded to 8),
// signed weights (summed with the sign bit flipped, +128 taken back with the
// zero-point), and 2 threads. A batched kernel gets the integer prefill.
// REQUIRES: avx2
// RUN: %gen_kernel 16 3 64 > %t.16.mlir
// RUN: qforge-bench %t.16.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 3 64 > %t.40.mlir
// RUN: qforge-bench %t.40.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.40.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 86 32 > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 3 64 --signed > %t.signed.mlir
// RUN: qforge-bench %t.signed.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 3 64 --signed --no-zero-point > %t.symmetric.mlir
// RUN: qforge-bench %t.symmetric.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 3 6 > %t.6.mlir
// RUN: qforge-bench %t.6.mlir --packed-weights --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s

// CHECK: compiling @quantized_matmul with {{.*}}decode-packed-int8.mlir
// CHECK: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: {{.*}}: PASS

// RUN: %gen_kernel 40 3 64 --batch 2 > %t.batch.mlir
// RUN: qforge-bench %t.batch.mlir --packed-weights --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=BATCH
// A batch of 2 rows picks the integer prefill (one block of 8 tokens),
// verified on activations int8 represents exactly at the f32 tolerance.
// BATCH: compiling @quantized_matmul with {{.*}}prefill-int8.mlir
// BATCH: verify: {{.*}}tolerance 1e-05): PASS

// Rows that 32 does not divide: the result's unpack (padded rows cut) is
// tiled 32 rows at a time, for 8- and 4-bit weights (vectorized whole, N =
// 4100 took the lowering 80 s).
// RUN: %gen_kernel 100 3 64 > %t.100.mlir
// RUN: qforge-compile %t.100.mlir --packed-weights --int8-activations --mcpu=znver3 --emit=mlir -o - | FileCheck %s --check-prefix=UNPACK
// RUN: %gen_kernel 100 3 64 --int4 > %t.100-int4.mlir
// RUN: qforge-compile %t.100-int4.mlir --int8-activations --mcpu=znver3 --emit=mlir -o - | FileCheck %s --check-prefix=UNPACK
// UNPACK: scf.for %{{.+}} = %c0 to %c100 step %c32 iter_args(%{{.+}}) -> (tensor<1x1x100xf32>)
