// The integer prefill with groups of 32 at K = 14336 (G = 448, the LLaMA
// down projection at llama.cpp's block size): the per-call packs of the
// activation rows' group scales (amax) and sums are tiled 16 groups at a
// time. Whole, each block's 448 x 8 transposes kept LLVM busy past the
// compile guard (> 120 s); now a few seconds. Verified on activations int8
// represents exactly (f32 tolerance), 8-bit and 4-bit weights.
// REQUIRES: avx2
// RUN: %gen_kernel 64 448 32 --batch 16 > %t.mlir
// RUN: qforge-bench %t.mlir --int8-activations --verify --time=false --compile-timeout=30 2>&1 | FileCheck %s
// RUN: %gen_kernel 64 448 32 --batch 16 --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --int8-activations --verify --time=false --compile-timeout=30 2>&1 | FileCheck %s
// CHECK: compiling @quantized_matmul with {{.*}}prefill-int{{4-int8|8}}.mlir
// CHECK: verify: {{.*}} (max |ref| {{.*}}, tolerance 1e-05): PASS
