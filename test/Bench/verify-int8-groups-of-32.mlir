// Execution test of the integer decode with groups of 32 (llama.cpp's block
// size) on an AVX512-VNNI host: the driver picks the 8-lane strategy (a
// 512-bit step of 64 bytes does not divide a group); on activations int8
// represents exactly the f32 tolerance applies. The bench's oracle puts the
// extreme in every group, as for any group size.
// REQUIRES: avx512vnni
// RUN: %gen_kernel 96 128 32 > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --threads=2 --verify --time=false 2>&1 | FileCheck %s
// CHECK: compiling @quantized_matmul with {{.*}}decode-int8.mlir
// CHECK: verify: max_abs_err {{.*}}, normalized {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS
