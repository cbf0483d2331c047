// A dynamic M's dispatcher (the outlined matmul's function, which runs row
// chunks through its static specializations) stays one function per
// distinct matmul, called from every site of it: q, k, v and o of a
// decoder layer call one, gate and up another, down a third. Its result's
// rows are known only at run time, so each call passes the destination
// (a tensor.empty of M rows) that the dispatcher writes into, marked
// writable, and returns; inlined at each site instead, the dispatch was
// most of a dynamic-M layer's machine code
// (docs/measurements/2026-12-07-zen1-dispatch-once.md).
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --dynamic > %t.mlir
// RUN: qforge-compile %t.mlir --mcpu=haswell --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @decoder_layer(
// CHECK-SAME:    %[[X:[^:]+]]: tensor<?x64xf32>, %[[O:[^:]+]]: tensor<?x64xf32>,
// CHECK:         %[[D0:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x64xf32>
// CHECK:         call @decoder_layer_qmm0(%[[X]], {{.+}}, %[[D0]]) :
// CHECK:         %[[D1:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x64xf32>
// CHECK:         call @decoder_layer_qmm0(%[[X]], {{.+}}, %[[D1]]) :
// CHECK:         %[[D2:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x64xf32>
// CHECK:         call @decoder_layer_qmm0(%[[X]], {{.+}}, %[[D2]]) :
// CHECK:         %[[MO:.+]] = tensor.dim %[[O]], %{{.+}} : tensor<?x64xf32>
// CHECK-NEXT:    %[[D3:.+]] = tensor.empty(%[[MO]]) : tensor<1x?x64xf32>
// CHECK:         call @decoder_layer_qmm0(%[[O]], {{.+}}, %[[D3]]) :
// CHECK:         %[[D4:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x128xf32>
// CHECK:         call @decoder_layer_qmm4({{.+}}, %[[D4]]) :
// CHECK:         %[[D5:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x128xf32>
// CHECK:         call @decoder_layer_qmm4({{.+}}, %[[D5]]) :
// CHECK:         %[[D6:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x64xf32>
// CHECK:         call @decoder_layer_qmm6({{.+}}, %[[D6]]) :
// The dispatch is not in the layer: no specialization is called there.
// CHECK-NOT:     call @decoder_layer_qmm{{[0-9]+}}_m
// CHECK:         return

// Three dispatchers, each writing into its last argument.
// CHECK-DAG: func.func private @decoder_layer_qmm0({{.+}}, %{{[^:]+}}: tensor<1x?x64xf32> {bufferization.writable = true}) -> tensor<1x?x64xf32>
// CHECK-DAG: func.func private @decoder_layer_qmm4({{.+}}, %{{[^:]+}}: tensor<1x?x128xf32> {bufferization.writable = true}) -> tensor<1x?x128xf32>
// CHECK-DAG: func.func private @decoder_layer_qmm6({{.+}}, %{{[^:]+}}: tensor<1x?x64xf32> {bufferization.writable = true}) -> tensor<1x?x64xf32>

// After bufferization the dispatcher returns nothing (the result was its
// destination: drop-equivalent-buffer-results), and nothing copies or
// clones the destination: the layer allocates it (one malloc per call) and
// passes it; no memcpy is added around the calls.
// RUN: qforge-compile %t.mlir --mcpu=haswell --emit=lowered -o - | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: llvm.func @decoder_layer(
// LOWERED-COUNT-4: llvm.call @decoder_layer_qmm0({{.+}}) : ({{.+}}) -> (){{$}}
// LOWERED-COUNT-2: llvm.call @decoder_layer_qmm4({{.+}}) : ({{.+}}) -> (){{$}}
// LOWERED:         llvm.call @decoder_layer_qmm6({{.+}}) : ({{.+}}) -> (){{$}}
// LOWERED-LABEL: llvm.func @decoder_layer_qmm0(
// LOWERED-NOT:     "llvm.intr.memcpy"
// LOWERED:         llvm.return{{$}}
// LOWERED-NEXT:  }

// The layer verifies at M = 1 (the decode path), 3 (padded into the
// remainder chunk), 4 (padded into a whole chunk) and 17 (two whole chunks,
// the rest padded), against the scalar reference at 1e-5.
// RUN: qforge-bench %t.mlir --verify --time=false --dim=M=1,3,4,17 | FileCheck %s --check-prefix=EXEC
// EXEC-COUNT-4: verify: {{.*}}: PASS
