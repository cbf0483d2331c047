// f16 and bf16 kernels against the reference, with every decode strategy
// and both prefill ones: computed in f32 from the same rounded inputs,
// rounded once at the end (docs/numerics.md). Without --tolerance the bench
// accepts what rounding to the result's type allows (f16 1e-3, bf16 8e-3);
// the int8 strategies add their activation quantization (1e-2, as in f32).
// Odd N (37) and several groups, IREE's and torch-mlir's spellings.
// REQUIRES: avx2
// RUN: %python %examples/gen_producer_kernel.py torch 37 3 128 --float f16 > %t.torch16.mlir
// RUN: %python %examples/gen_producer_kernel.py iree 37 3 128 --float bf16 > %t.iree16.mlir
// RUN: qforge-bench %t.torch16.mlir --verify --time=false | FileCheck %s --check-prefix=F16
// RUN: qforge-bench %t.torch16.mlir --packed-weights --verify --time=false | FileCheck %s --check-prefix=F16
// RUN: qforge-bench %t.torch16.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s
// RUN: qforge-bench %t.torch16.mlir --int8-activations --packed-weights --verify --tolerance=1e-2 --time=false | FileCheck %s
// F16: verify: {{.*}} tolerance 0.001): PASS
// RUN: qforge-bench %t.iree16.mlir --verify --time=false | FileCheck %s --check-prefix=BF16
// RUN: qforge-bench %t.iree16.mlir --packed-weights --verify --time=false | FileCheck %s --check-prefix=BF16
// RUN: qforge-bench %t.iree16.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s
// BF16: verify: {{.*}} tolerance 0.008): PASS
// CHECK: verify: {{.*}}: PASS

// Batched (M = 20 tokens): the prefill strategies; 4-bit weights.
// RUN: %python %examples/gen_producer_kernel.py iree 37 2 128 --float f16 --batch 20 > %t.batch16.mlir
// RUN: qforge-bench %t.batch16.mlir --verify --time=false | FileCheck %s --check-prefix=F16
// RUN: qforge-bench %t.batch16.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s
// RUN: %python %examples/gen_producer_kernel.py iree 64 2 128 --float bf16 --int4 > %t.int4bf16.mlir
// RUN: qforge-bench %t.int4bf16.mlir --verify --time=false | FileCheck %s --check-prefix=BF16
// RUN: qforge-bench %t.int4bf16.mlir --int8-activations --verify --tolerance=1e-2 --time=false | FileCheck %s

// The f16 scales are converted as they are loaded (vcvtph2ps), not by a
// pass over them: the packed strategy packs them as f16.
// RUN: qforge-compile %t.torch16.mlir --packed-weights --emit=mlir -o - | FileCheck %s --check-prefix=PACKED
// PACKED: func.func @quantized_matmul_pack_weights({{.*}}tensor<37x3x1xf16>{{.*}}) -> ({{.*}}xf16>
// RUN: qforge-compile %t.torch16.mlir --packed-weights --emit=asm -o - | FileCheck %s --check-prefix=ASM
// ASM: vcvtph2ps
