// A model of several layer functions (examples/gen_decoder_layer.py
// --layers 2; merged into one private layer function) with every strategy
// that packs the weights: the layer function's own packing
// (@decoder_layer_layer0_pack_weights, private) passes on to the public
// function's @decoder_layer_pack_weights, which calls it once per layer; the
// public function takes every layer's packed tensors and passes them on.
// Before, the public function kept passing raw weights to a layer function
// that took packed ones ("failed to bufferize op" at the call): every
// multi-layer model failed with --packed-weights, 4-bit weights or M > 1.
// REQUIRES: avx512vnni
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 512 --group 32 --layers 2 > %t.mlir
// RUN: qforge-compile %t.mlir --packed-weights --emit=mlir -o - | FileCheck %s
// CHECK-LABEL: func.func @decoder_layer(%{{.+}}: tensor<256xf32>, %{{.+}}: tensor<256xf32>, %{{.+}}: tensor<4x8x32x64xi8>,
// CHECK-SAME:    qforge.pack_weights = @decoder_layer_pack_weights
// CHECK:         call @decoder_layer_layer0(%arg0, %arg1, %arg2,
// CHECK:         call @decoder_layer_layer0(%{{.+}}#3, %arg1, %arg23,
// CHECK-LABEL: func.func @decoder_layer_pack_weights(%{{.+}}: tensor<256x8x32xi8>,
// CHECK-SAME:    qforge.prepacked_arguments = array<i64: 2, 3, 4,
// CHECK-COUNT-2: call @decoder_layer_layer0_pack_weights(
// CHECK-LABEL: func.func private @decoder_layer_layer0(%{{.+}}: tensor<256xf32>, %{{.+}}: tensor<256xf32>, %{{.+}}: tensor<4x8x32x64xi8>,
// CHECK-NOT:     qforge.pack_weights
// CHECK-LABEL: func.func private @decoder_layer_layer0_pack_weights(%{{.+}}: tensor<256x8x32xi8>,
// CHECK-NOT:     qforge.prepacked_arguments
// CHECK:         call @decoder_layer_layer0_qmm0_pack_weights(

// Each verifies against the reference, call by call (one run per kind: a
// JIT compile of a model costs seconds): packed f32 decode, int8 prefill
// (M = 16).
// RUN: qforge-bench %t.mlir --packed-weights --verify --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 512 --group 32 --layers 2 --tokens 16 > %t.prefill.mlir
// RUN: qforge-bench %t.prefill.mlir --int8-activations --verify --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: packing the parameters once with @decoder_layer_pack_weights
// VERIFY: verify: the results of 14 matmul call(s): {{.*}} tolerance 1e-05)
// VERIFY: verify: {{.*}}: PASS

// 4-bit weights: the i4 arguments pass through the call to the layer
// function, which reads them (both store them as byte pairs). Before:
// "argument #2 ... is used by 'func.call'; qforge reads i4 arguments only
// as linalg.generic inputs".
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 512 --group 32 --layers 2 --int4 > %t.int4.mlir
// RUN: qforge-compile %t.int4.mlir --emit=mlir -o - | FileCheck %s --check-prefix=INT4
// INT4-LABEL: func.func @decoder_layer_pack_weights(%{{.+}}: tensor<256x8x16xi8>,
// INT4-LABEL: func.func private @decoder_layer_layer0(
// INT4-SAME:    qforge.int4_byte_pairs
// RUN: qforge-bench %t.int4.mlir --verify --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY

// A dynamic token count: the layer function returns tensors of dynamic
// shape, which no caller can allocate ahead of the call; it returns buffers
// it allocated (buffer-results-to-out-params leaves such a private function
// alone; before: "cannot create out param for dynamically shaped result").
// RUN: %python %examples/gen_decoder_layer.py --hidden 256 --intermediate 512 --group 32 --layers 2 --dynamic > %t.dynamic.mlir
// RUN: qforge-bench %t.dynamic.mlir --dim=M=17 --verify --time=false 2>&1 | FileCheck %s --check-prefix=VERIFY
