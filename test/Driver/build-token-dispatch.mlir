// qforge-build-token-dispatch: after outlining and specializing a quantized
// matmul with a dynamic token count, its function becomes the dispatcher:
// whole chunks of 32, then 8 rows (the largest first, scf.for over
// M / size), then the rows left: at most rows-by-decode of them one at a
// time through @<f>_m1, else padded into the smallest remainder that holds
// them (4), else into the smallest chunk (8).
// RUN: %gen_kernel 32 4 128 --dynamic > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=1,4,8,32 --qforge-build-token-dispatch="chunks=8,32 remainders=4" | FileCheck %s

// CHECK-LABEL: func.func private @quantized_matmul_qmm0(%arg0: tensor<1x?x4x128xf32>
// CHECK:         %[[M:.+]] = tensor.dim %arg0, %c1
// CHECK:         arith.divui %{{.+}}, %c32
// CHECK:         scf.for {{.*}} step %c32
// CHECK:           func.call @quantized_matmul_qmm0_m32(%{{.+}}, %arg1, %arg2, %arg3) : (tensor<1x32x4x128xf32>
// CHECK:         arith.divui %{{.+}}, %c8
// CHECK:         scf.for {{.*}} step %c8
// CHECK:           func.call @quantized_matmul_qmm0_m8(
// CHECK:         arith.cmpi ule, %{{.+}}, %c1
// CHECK:         scf.if
// CHECK:           scf.for {{.*}} to %[[M]] step %c1
// CHECK:             func.call @quantized_matmul_qmm0_m1(
// CHECK:         } else {
// CHECK:           arith.cmpi ule, %{{.+}}, %c4
// CHECK:           scf.if
// CHECK:             func.call @quantized_matmul_qmm0_m4(%padded
// CHECK:           } else {
// CHECK:             func.call @quantized_matmul_qmm0_m8(%padded
// CHECK-NOT:     linalg.generic
// CHECK:         return
// CHECK-LABEL: func.func private @quantized_matmul_qmm0_m32(

// With into-destinations (what the driver builds): the dispatcher writes
// into a last, writable argument, the first chunk loop carries it, and the
// caller passes a tensor.empty of M rows.
// RUN: qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=1,4,8,32 --qforge-build-token-dispatch="chunks=8,32 remainders=4 into-destinations=true" | FileCheck %s --check-prefix=DEST
// DEST-LABEL: func.func @quantized_matmul(
// DEST-SAME:    %[[X:[^:]+]]: tensor<1x?x4x128xf32>)
// DEST:         %[[M:.+]] = tensor.dim %[[X]], %c1
// DEST-NEXT:    %[[EMPTY:.+]] = tensor.empty(%[[M]]) : tensor<1x?x32xf32>
// DEST-NEXT:    %[[Y:.+]] = call @quantized_matmul_qmm0(%{{.+}}, %[[EMPTY]])
// DEST:         return %[[Y]]
// DEST-LABEL: func.func private @quantized_matmul_qmm0(
// DEST-SAME:    %[[D:[^:]+]]: tensor<1x?x32xf32> {bufferization.writable = true}) -> tensor<1x?x32xf32>
// DEST-NOT:     tensor.empty
// DEST:         scf.for {{.*}} step %c32{{(_[0-9]+)?}} iter_args(%{{.+}} = %[[D]])

// With pad-nearly-full-chunks, rows left that fill a chunk of 32 to within
// the smallest chunk and an eighth of 32 (28 rows and more) go padded into
// it.
// RUN: qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=1,8,32 --qforge-build-token-dispatch="chunks=8,32 pad-nearly-full-chunks=true" | FileCheck %s --check-prefix=PAD
// PAD: arith.cmpi uge, %{{.+}}, %c28
// PAD: func.call @quantized_matmul_qmm0_m32(%padded

// A chunk size without its specialization is an error at the function.
// RUN: not qforge-opt %t.mlir --qforge-normalize-dequant-contraction --qforge-outline-quantized-matmuls --qforge-specialize-token-count=sizes=1,8 --qforge-build-token-dispatch="chunks=16" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: no specialization @quantized_matmul_qmm0_m16 to dispatch to (qforge-specialize-token-count first)
