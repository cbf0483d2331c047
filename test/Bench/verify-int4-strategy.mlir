// Execution test of the 4-bit decode strategy with f32 activations
// (transforms/decode-packed-int4-f32.mlir, picked by the driver for i4
// weights) against the scalar reference of the same kernel, normalized
// error within 1e-5: unsigned and signed nibbles; one row tile; 100 rows
// (padded to 128: the bubbled dequant's nibble index must survive the
// packing); 86 groups of 16 and of 128 (compiled in seconds: the activation
// sums reduce one group at a time); 2 threads; and the seed's shape. Also
// the script compiled for an AVX2 target (Haswell), unsigned and signed
// nibbles: its nibble tables (vpermps of 512 bits) become the conversions
// they stand for, and the kernel, run here, still verifies.
// REQUIRES: avx512f
// RUN: %gen_kernel 64 3 16 --int4 > %t.64.mlir
// RUN: qforge-bench %t.64.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 3 16 --int4 --signed > %t.100.mlir
// RUN: qforge-bench %t.100.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.100.mlir --verify --tolerance=1e-5 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: %gen_kernel 70 86 16 --int4 --signed > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 64 86 128 --int4 > %t.86x128.mlir
// RUN: qforge-bench %t.86x128.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 4096 32 128 --int4 > %t.seed.mlir
// RUN: qforge-bench %t.seed.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.86x128.mlir --strategy-row=decode-packed-int4-f32/avx512 --mcpu=haswell --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.100.mlir --strategy-row=decode-packed-int4-f32/avx512 --mcpu=haswell --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// CHECK: compiling @quantized_matmul with {{.*}}decode-packed-int4-f32.mlir
// CHECK: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: {{.*}}: PASS
