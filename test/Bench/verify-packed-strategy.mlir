// Execution test of the packed decode strategy
// (transforms/decode-packed-f32.mlir): qforge-bench packs the random raw
// parameters once with @quantized_matmul_pack_weights, runs the kernel on
// the packed ones, and compares with the scalar reference of the unpacked
// kernel; normalized error within 1e-5. Shapes:
// - N = 37, G = 3, K = 16, signed weights: a single row tile, 27 of its 64
//   rows padding;
// - N = 100, G = 5, K = 64: two row tiles, the second 36 rows short;
// - N = 70, G = 86, K = 16: many groups of two k iterations (8 k steps
//   each), a padded second row tile;
// - N = 100 on 2 threads: the two row tiles of the scf.forall on different
//   threads.
// The padded rows' results are cut by the unpack: a wrong padding would not
// show here (test/Driver/packed-strategy-ir.mlir checks it is zeros).
// RUN: %gen_kernel 37 3 16 --signed > %t.37.mlir
// RUN: qforge-bench %t.37.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 100 5 64 > %t.100.mlir
// RUN: qforge-bench %t.100.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 70 86 16 > %t.70.mlir
// RUN: qforge-bench %t.70.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s
// RUN: qforge-bench %t.100.mlir --strategy-row=decode-packed-f32/avx512 --threads=2 --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s

// CHECK: qforge-bench: compiling @quantized_matmul with {{.*}}decode-packed-f32.mlir
// CHECK: qforge-bench: packing the parameters once with @quantized_matmul_pack_weights
// CHECK: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS

// The JSON line: verified, and bytes_per_call counts what one call of the
// kernel reads, i.e. its packed inputs, padding included (the result is not
// counted). For N = 100, G = 5, K = 64 (rows padded to 128):
//   weights      2x5x64x64 i8    40960 bytes
//   scales       2x5x1x64 f32     2560 bytes
//   zero-points  2x5x1x64 f32     2560 bytes
//   activation   1x1x5x64 f32     1280 bytes
//   total                        47360 bytes
// (the raw inputs would be 32000 + 2000 + 2000 + 1280 = 37280).
// RUN: qforge-bench %t.100.mlir --strategy-row=decode-packed-f32/avx512 --verify --tolerance=1e-5 --time=false --json 2>&1 | FileCheck %s --check-prefix=JSON

// JSON: qforge-bench: packing the parameters once with @quantized_matmul_pack_weights
// JSON: verify: {{.*}}: PASS
// JSON: {"func":"quantized_matmul","threads":1,"verified":true,{{.*}}"bytes_per_call":47360}
