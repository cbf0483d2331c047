// A two-level matmul (llama.cpp's K-quants, docs/gguf.md) in a whole module
// is outlined with its whole decoding: the blocks' slices and reshapes, the
// super-block's f16 joined from two bytes, and the sub-blocks' scale and
// offset generics that read that f16 -- the outlined function takes the
// blocks and x, as a kernel of the matmul alone would, so the two-level
// strategies take it (a Q4_K_M layer: test/Tools/gguf-tensor.test).
// RUN: %python %examples/gen_gguf_kernel.py q6_K 4 256 > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-outline-quantized-matmuls | FileCheck %s
// CHECK-LABEL: func.func @gguf_matmul(
// CHECK-SAME:      %[[BLOCKS:.+]]: tensor<4x1x210xi8> {qforge.gguf_type = "q6_K"}, %[[X:.+]]: tensor<1x256xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[Y:.+]] = call @gguf_matmul_qmm0(%[[BLOCKS]], %[[X]]) : (tensor<4x1x210xi8>, tensor<1x256xf32>) -> tensor<1x4xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK:       func.func private @gguf_matmul_qmm0(
// CHECK:         linalg.generic
// CHECK:           arith.bitcast %{{.+}} : i16 to f16
// CHECK:         tensor.extract_slice %{{.+}}[0, 0, 192] [4, 1, 16] [1, 1, 1]
// CHECK:         linalg.generic
// CHECK:           arith.sitofp %{{.+}} : i8 to f32
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK:         linalg.generic
// CHECK:           arith.constant 3.200000e+01 : f32

// The driver compiles it with the two-level strategy.
// RUN: qforge-compile %t.mlir --emit=mlir -o /dev/null 2>&1 | count 0

// Fields apart (gen_gguf_kernel.py q4_K --fields): the scale's generic reads
// the scale bytes and the f16 argument d beside them -- a decoding, taken
// along; the outlined function takes the five fields and x.
// RUN: %python %examples/gen_gguf_kernel.py q4_K 4 256 --fields > %t.fields.mlir
// RUN: qforge-opt %t.fields.mlir --qforge-outline-quantized-matmuls | FileCheck %s --check-prefix=FIELDS
// FIELDS-LABEL: func.func @gguf_matmul(
// FIELDS-NOT:     linalg.generic
// FIELDS:         call @gguf_matmul_qmm0(%arg2, %arg0, %arg1, %arg3, %arg4) : (tensor<4x1x12xi8>, tensor<4x1xf16>, tensor<4x1xf16>, tensor<4x1x128xi8>, tensor<1x256xf32>) -> tensor<1x4xf32>
// FIELDS:       func.func private @gguf_matmul_qmm0(
// FIELDS-COUNT-3: linalg.generic
// RUN: qforge-compile %t.fields.mlir --emit=mlir -o /dev/null 2>&1 | count 0
