// A module with several quantized matmuls and elementwise ops between them
// (examples/gen_decoder_layer.py at small sizes, IREE's form): every pair
// is outlined into @<f>_qmm<i> with its strategy (gate and up, identical,
// share one), the rest is vectorized, and the whole function matches the
// reference.
// REQUIRES: avx512vnni
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 32 --mlp-only --name mlp > %t.mlp.mlir
// RUN: qforge-compile %t.mlp.mlir --emit=mlir -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @mlp(
// IR: call @mlp_qmm0(
// IR: call @mlp_qmm0(
// silu(gate) * up: tiled by 64 and vectorized, exp on a vector.
// IR: scf.for
// IR: math.exp %{{.+}} : vector<64xf32>
// IR: call @mlp_qmm2(
// IR: func.func private @mlp_qmm{{[0-2]}}(
// The decode strategy ran on each: its row loop is there, no generic left.
// IR-NOT: linalg.generic
// IR: } {qforge.weight_rows}

// The vector exp is a polynomial, not one libm call per lane.
// RUN: qforge-compile %t.mlp.mlir --emit=asm -o - | FileCheck %s --check-prefix=ASM
// ASM-NOT: expf

// RUN: qforge-bench %t.mlp.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: verify: {{.*}}: PASS
// The integer strategies need groups of a multiple of 32: on groups of 16
// the failing step's error is followed by one naming the pair it ran on.
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 16 --mlp-only --name mlp16 > %t.mlp16.mlir
// RUN: not qforge-compile %t.mlp16.mlir --mcpu=sapphirerapids --int8-activations -o %t.o 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: error: cannot factor: the group size (16) is not a multiple of lanes (16) x 4 bytes per lane
// STEP: mlp16.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the strategy '{{.*}}decode-int8.mlir' failed on this quantized matmul (outlined as @mlp16_qmm0)
// The pairs' strategies run in parallel; what is said is what one after the
// other says, up to the first that failed: not the others' failures.
// STEP-NOT: cannot factor
// STEP-NOT: failed on this quantized matmul
// With groups of 32 (the 8-lane strategy on AVX512-VNNI) and of 64 it runs;
// three int8-quantized activations in a chain (down reads silu(gate) * up)
// verify at 5e-2 (docs/numerics.md).
// RUN: qforge-bench %t.mlp.mlir --int8-activations --verify --tolerance=5e-2 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 64 --mlp-only --name mlp > %t.mlp64.mlir
// RUN: qforge-bench %t.mlp64.mlir --int8-activations --verify --tolerance=5e-2 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY

// The whole layer: q, k, v, o, gate, up, down, residual adds; four results.
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 32 > %t.layer.mlir
// RUN: qforge-bench %t.layer.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=LAYER
// LAYER: compiling @decoder_layer with {{.*}}decode-f32.mlir
// LAYER: verify: {{.*}}: PASS

// Strategies that pack the weights (--packed-weights, 4-bit weights,
// prefill) run on a module too: whole-module-packed.mlir.
