// Execution test of the packed decode strategy on full-size shapes (the
// data-tiling issue's acceptance): the bundled seed kernel (4096x32x128), N =
// 4100 (64-row tiles do not divide it: 60 zero rows padded, cut by the
// unpack) and 86 groups (the LLaMA-7B down projection's 4096x11008), each
// against the scalar reference within a normalized error of 1e-5. (An AVX2
// host's compile of these 512-bit vectors takes minutes: AVX-512 hosts
// only; verify-packed-avx2.mlir is its AVX2 twin.)
// REQUIRES: avx512f
// RUN: qforge-bench %examples/seed_decode_4096x32x128.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %gen_kernel 4100 32 128 > %t.4100.mlir
// RUN: qforge-bench %t.4100.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false | FileCheck %s
// RUN: %gen_kernel 4096 86 128 > %t.86.mlir
// RUN: qforge-bench %t.86.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false | FileCheck %s

// CHECK: verify: max_abs_err {{.*}}, normalized {{[0-9.]+e-0[6-9]}} (max |ref| {{.*}}, tolerance 1e-05): PASS
