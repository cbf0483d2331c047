// One group per row (G = 1) on the integer prefill strategies. A padded k
// step (8-bit groups of 10, 4-bit groups of 20) used to crash the compile
// (SIGSEGV in MLIR 22's tensor.cast folding, after the unit-dim fold left a
// slice whose dropped dim the extract_slice canonicalization re-picked);
// the activation packs' one-iteration loops now fold first
// (transforms/lib/packed.mlir). Verified against the f32 reference on
// activations int8 represents exactly, at the f32 tolerance.
// REQUIRES: avx2
// RUN: %gen_kernel 3 1 10 --batch 2 > %t.g10.mlir
// RUN: qforge-bench %t.g10.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s
// RUN: %gen_kernel 3 1 20 --batch 2 --int4 > %t.g20.mlir
// RUN: qforge-bench %t.g20.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s
// CHECK: verify: {{.*}}tolerance 1e-05): PASS

// A row of one group that is one 4-byte step (8-bit groups of 4, 4-bit
// groups of 8 or less) packs into a reshape and leaves no pack to tile: it
// is refused before any script step, at the matmul, naming the limit (it
// crashed, or failed inside transforms/lib/packed.mlir naming nothing).
// RUN: %gen_kernel 3 1 4 --batch 2 > %t.g4.mlir
// RUN: not qforge-compile %t.g4.mlir --int8-activations -o %t.o 2>&1 | FileCheck %s --check-prefix=REFUSED -DFILE=%t.g4.mlir
// RUN: %gen_kernel 3 1 4 --batch 2 --int4 > %t.g4-int4.mlir
// RUN: not qforge-bench %t.g4-int4.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=REFUSED-INT4 -DFILE=%t.g4-int4.mlir
// REFUSED: [[FILE]]:{{[0-9]+}}:{{[0-9]+}}: error: no strategy for this quantized matmul of @quantized_matmul: the integer prefill strategy needs a row of one group (G = 1) to hold at least 8 weights (the kernel's has 4
// REFUSED-INT4: [[FILE]]:{{[0-9]+}}:{{[0-9]+}}: error: no strategy for this quantized matmul of @quantized_matmul: the int4 prefill strategy with int8 activations needs a row of one group (G = 1) to hold at least 16 weights (the kernel's has 4
