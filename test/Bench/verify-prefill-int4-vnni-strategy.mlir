// Execution test of the packed integer prefill strategy for 4-bit weights
// (transforms/prefill-int4-int8.mlir: each nibble vector of a weight
// line feeds 8 vpdpbusd) against the f32 reference, tolerance 1e-2 (the
// int8 activations' error, ~3e-3-5e-3 here): 13 activation rows (padded to
// 16) by 100 weight rows (padded to 128), signed and unsigned nibbles, 1 and
// 2 threads; 86 groups; groups of 6 and 4 and 3 rows (exact activations,
// f32 tolerance); groups of 2 refused (below).
// REQUIRES: avx2
// RUN: %gen_kernel 100 5 64 --batch 13 --int4 --signed > %t.pad.mlir
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-int8/vnni --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.pad.mlir --strategy-row=prefill-int4-int8/vnni --verify --tolerance=1e-2 --time=false --threads=2 2>&1 | FileCheck %s
// RUN: %gen_kernel 128 3 32 --batch 16 --int4 > %t.exact.mlir
// RUN: qforge-bench %t.exact.mlir --strategy-row=prefill-int4-int8/vnni --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 86 32 --batch 16 --int4 > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --strategy-row=prefill-int4-int8/vnni --verify --tolerance=1e-2 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 40 3 6 --batch 16 --int4 --signed > %t.6.mlir
// Groups of at most 8 weights are one step of 4 byte pairs, a dim the
// unit-dim fold keeps; a group of 2 weights (one byte) is refused.
// RUN: qforge-bench %t.6.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %gen_kernel 64 16 4 --batch 3 --int4 > %t.4.mlir
// RUN: qforge-bench %t.4.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=SMALL
// Blocks of up to 9 tokens: 17 rows are two of 9, 9 rows one.
// RUN: %gen_kernel 100 5 64 --batch 17 --int4 --signed > %t.m17.mlir
// RUN: qforge-bench %t.m17.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %gen_kernel 64 4 32 --batch 9 --int4 > %t.m9.mlir
// RUN: qforge-bench %t.m9.mlir --int8-activations --verify --time=false --threads=2 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: verify: {{.*}}tolerance 1e-05): PASS
// RUN: %gen_kernel 64 16 2 --batch 16 --int4 > %t.2.mlir
// RUN: not qforge-bench %t.2.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: the int4 prefill strategy with int8 activations needs groups of at least 4 weights (the kernel's have 2)

// CHECK: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: {{.*}}: PASS
