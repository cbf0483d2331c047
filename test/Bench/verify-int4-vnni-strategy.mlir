// Execution test of the 4-bit decode strategy with int8 activations
// (transforms/decode-packed-int4-int8.mlir: two vpdpbusd per 64-byte line,
// one per nibble) against the f32 reference, tolerance 1e-2 (the int8
// activations' error, ~3e-3-4e-3 here): unsigned nibbles; signed ones (sign
// bit flipped, the offset taken back with the zero-point); signed without
// zero-point; one row tile; 100 rows (padded to 128); 86 groups of 32 and
// of 128 (the activation's pack runs 4 tiles at a time: whole, it took LLVM
// minutes); groups of 6 (k padded to 8); 2 threads; and the seed's shape.
// REQUIRES: avx2
// RUN: %gen_kernel 16 3 64 --int4 > %t.16.mlir
// RUN: qforge-bench %t.16.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 3 64 --int4 --signed > %t.100.mlir
// RUN: qforge-bench %t.100.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.100.mlir --int8-activations --verify --tolerance=1e-2 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 3 64 --int4 --signed --no-zero-point > %t.symmetric.mlir
// RUN: qforge-bench %t.symmetric.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 86 32 --int4 > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 32 86 128 --int4 > %t.86x128.mlir
// RUN: qforge-bench %t.86x128.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 3 6 --int4 --signed > %t.6.mlir
// RUN: qforge-bench %t.6.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 4096 32 128 --int4 --signed > %t.seed.mlir
// RUN: qforge-bench %t.seed.mlir --int8-activations --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s

// CHECK: compiling @quantized_matmul with {{.*}}decode-packed-int4-int8.mlir
// CHECK: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: {{.*}}: PASS

// torch-mlir's 4-bit form (i4 N x K through tensor.expand_shape) reaches
// the byte pairs like the other forms: every 4-bit strategy, M = 1 and
// batched, f32 and int8 activations.
// RUN: %python %examples/gen_producer_kernel.py torch 96 2 64 --int4 > %t.torch.mlir
// RUN: qforge-bench %t.torch.mlir --verify --time=false 2>&1 | FileCheck %s --check-prefix=TORCH
// RUN: qforge-bench %t.torch.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=TORCH
// RUN: %python %examples/gen_producer_kernel.py torch 96 2 64 --int4 --batch 17 > %t.torch-batch.mlir
// RUN: qforge-bench %t.torch-batch.mlir --verify --time=false 2>&1 | FileCheck %s --check-prefix=TORCH
// RUN: qforge-bench %t.torch-batch.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=TORCH
// TORCH: verify: {{.*}}tolerance 1e-05): PASS
