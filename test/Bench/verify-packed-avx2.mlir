// Execution test of the AVX2 packed strategies (16-row tiles of two 8-lane
// ymm): decode-packed-f32.mlir on N = 4100 (16-row tiles do not divide
// it: 12 zero rows padded, cut by the unpack) and on 86 groups (the
// LLaMA-7B down projection's K = 11008), and prefill-f32.mlir
// (6 tokens x 16 rows) on 13 tokens and 100 rows (both tiles padded), each
// against the scalar reference within a normalized error of 1e-5.
// REQUIRES: avx2
// RUN: %gen_kernel 4100 32 128 > %t.4100.mlir
// RUN: qforge-bench %t.4100.mlir --strategy-row=decode-packed-f32/avx2 --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %gen_kernel 1024 86 128 > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --strategy-row=decode-packed-f32/avx2 --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %gen_kernel 100 3 32 --batch 13 > %t.13.mlir
// RUN: qforge-bench %t.13.mlir --strategy-row=prefill-f32/avx2 --verify --tolerance=1e-5 --time=false | FileCheck %s

// 4-bit weights (byte pairs): decode-packed-int4-f32.mlir and
// prefill-int4-f32.mlir, the same tiles on N/16 x G x K/2 x 16 bytes.
// RUN: %gen_kernel 4100 8 128 --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --strategy-row=decode-packed-int4-f32/avx2 --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %gen_kernel 100 3 64 --int4 --batch 13 > %t.int4x13.mlir
// RUN: qforge-bench %t.int4x13.mlir --strategy-row=prefill-int4-f32/avx2 --verify --tolerance=1e-5 --time=false | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{[0-9.]+e-0[6-9]}} (max |ref| {{.*}}, tolerance 1e-05): PASS

// A dynamic token count compiled for AVX2 (test/Driver/dynamic-tokens.mlir
// shows its dispatch): chunks of 6, 24 and 96 rows, one row left through
// the decode path, 2-3 padded into a chunk of 3, 4-5 into 6.
// RUN: %gen_kernel 100 3 32 --dynamic > %t.dyn.mlir
// RUN: qforge-bench %t.dyn.mlir --mcpu=haswell --verify --time=false --dim=M=1,2,3,4,5,7,9,31 | FileCheck %s --check-prefix=DYN
// RUN: %gen_kernel 100 3 64 --dynamic --int4 > %t.dyn4.mlir
// RUN: qforge-bench %t.dyn4.mlir --mcpu=haswell --verify --time=false --dim=M=2,3,4,5 | FileCheck %s --check-prefix=DYN4
// DYN-COUNT-8: verify: {{.*}}: PASS
// DYN4-COUNT-4: verify: {{.*}}: PASS

// Both read one packed layout, N/16 x G x K x 16 weights and N/16 x G x 1 x
// 16 scales and zero-points, so one packing serves both paths.
// RUN: qforge-compile %t.4100.mlir --strategy-row=decode-packed-f32/avx2 --mcpu=znver3 --emit=obj -o %t.o --header=%t.decode.h
// RUN: FileCheck %s --check-prefix=LAYOUT < %t.decode.h
// RUN: %gen_kernel 4100 32 128 --batch 7 > %t.4100x7.mlir
// RUN: qforge-compile %t.4100x7.mlir --mcpu=znver3 --emit=obj -o %t.o --header=%t.prefill.h
// RUN: FileCheck %s --check-prefix=LAYOUT < %t.prefill.h
// LAYOUT: void _mlir_ciface_quantized_matmul(
// LAYOUT-NEXT: qforge_memref_4d_i8 *arg0 /* tensor<257x32x128x16xi8> */,
// LAYOUT-NEXT: qforge_memref_4d_f32 *arg1 /* tensor<257x32x1x16xf32> */,
// LAYOUT-NEXT: qforge_memref_4d_f32 *arg2 /* tensor<257x32x1x16xf32> */,
