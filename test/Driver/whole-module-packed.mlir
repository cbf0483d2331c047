// Strategies that pack the weights, on a module with several quantized
// matmuls: each outlined pair gets its strategy, and its pack function is
// lifted into the module function's own @<f>_pack_weights (public, with
// the parent's argument positions), which calls the pairs' (private); the
// module function takes the packed tensors (docs/abi.md). Then it verifies
// against the reference: packed f32 and int8 decode, 4-bit weights, and
// prefill (M = 16 tokens) f32 and int8, at small sizes of
// examples/gen_decoder_layer.py. Identical pairs (gate and up: the same
// shapes, types and strategy) compile once: both calls name @mlp_qmm0, and
// @mlp_pack_weights calls its pack function once per set of weights.
// REQUIRES: avx512vnni
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 64 --mlp-only --name mlp > %t.mlp.mlir
// RUN: qforge-compile %t.mlp.mlir --packed-weights --emit=mlir -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @mlp(%{{.+}}: tensor<256xf32>, %{{.+}}: tensor<6x4x64x64xi8>, %{{.+}}: tensor<6x4x1x64xf32>, %{{.+}}: tensor<6x4x1x64xf32>,
// IR-SAME: qforge.pack_weights = @mlp_pack_weights
// IR: call @mlp_qmm0(%{{.+}}, %arg2, %arg3, %arg1)
// IR: call @mlp_qmm0(%{{.+}}, %arg5, %arg6, %arg4)
// IR: call @mlp_qmm2(
// IR-NOT: func.func private @mlp_qmm1(
// IR-DAG: func.func private @mlp_qmm0_pack_weights(%{{.+}}: tensor<384x4xf32>, %{{.+}}: tensor<384x4xf32>, %{{.+}}: tensor<384x4x64xi8>) -> (tensor<6x4x1x64xf32>, tensor<6x4x1x64xf32>, tensor<6x4x64x64xi8>)
// IR-DAG: func.func private @mlp_qmm2_pack_weights(
// IR-DAG: func.func @mlp_pack_weights(%{{.+}}: tensor<384x4x64xi8>, %{{.+}}: tensor<384x4xf32>, %{{.+}}: tensor<384x4xf32>, {{.*}} attributes {{{.*}}qforge.prepacked_arguments = array<i64: 1, 2, 3, 4, 5, 6, 7, 8, 9>}
// RUN: qforge-bench %t.mlp.mlir --packed-weights --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: packing the parameters once with @{{.+}}_pack_weights
// VERIFY: verify: {{.*}}: PASS
// RUN: qforge-bench %t.mlp.mlir --packed-weights --int8-activations --verify --tolerance=5e-2 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY

// The whole layer, packed, and its C header: both functions declared.
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 64 > %t.layer.mlir
// RUN: qforge-bench %t.layer.mlir --packed-weights --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: qforge-compile %t.layer.mlir --packed-weights --header=%t.layer.h -o %t.layer.o
// RUN: FileCheck %s --check-prefix=HEADER < %t.layer.h
// HEADER-DAG: void _mlir_ciface_decoder_layer(
// HEADER-DAG: void _mlir_ciface_decoder_layer_pack_weights(
// The packed layout a caller that keeps packed weights checks (docs/abi.md):
// the formats' version and this packing's fingerprint, the same in two
// builds of the same layer.
// HEADER-DAG: #define QFORGE_DECODER_LAYER_PACKED_LAYOUT_VERSION 2
// HEADER-DAG: #define QFORGE_DECODER_LAYER_PACKED_LAYOUT_FINGERPRINT 0x{{[0-9a-f]+}}ull
// RUN: qforge-compile %t.layer.mlir --packed-weights --header=%t.layer2.h -o %t.layer2.o
// RUN: grep FINGERPRINT %t.layer.h > %t.fingerprint1
// RUN: grep FINGERPRINT %t.layer2.h | diff - %t.fingerprint1

// 4-bit weights always take a packed strategy.
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 64 --int4 > %t.int4.mlir
// RUN: qforge-bench %t.int4.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=INT4
// INT4: compiling @decoder_layer with {{.*}}decode-packed-int4-f32.mlir
// INT4: verify: {{.*}}: PASS
// RUN: qforge-bench %t.int4.mlir --int8-activations --verify --tolerance=5e-2 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY

// M = 16 tokens: the prefill strategies, chosen by M.
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 384 --group 64 --tokens 16 > %t.prefill.mlir
// RUN: qforge-bench %t.prefill.mlir --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefix=PREFILL
// PREFILL: compiling @decoder_layer with {{.*}}prefill-f32.mlir
// PREFILL: verify: {{.*}}: PASS
// RUN: qforge-bench %t.prefill.mlir --int8-activations --verify --tolerance=5e-2 --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY

// Packing ahead of calls needs each packed tensor to be an argument only
// its matmul reads: two matmuls sharing one weight argument are refused at
// the first, by name.
// RUN: sed 's/ins(%%wup_w,/ins(%%wgate_w,/' %t.mlp.mlir > %t.shared.mlir
// RUN: not qforge-compile %t.shared.mlir --packed-weights --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: shared.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the strategy packs operand #{{[0-9]}} of @mlp_qmm0 once, ahead of calls; that needs it to be an argument of @mlp that only this quantized matmul reads (docs/abi.md)
// SHARED: qforge-compile: error: the weights of a quantized matmul cannot be packed ahead of calls (see above)
