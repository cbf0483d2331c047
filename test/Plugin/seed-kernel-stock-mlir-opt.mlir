// Stock mlir-opt with the qforge plugin runs a script from transforms/ on the
// bundled seed kernel, with the script library it includes preloaded: the
// matcher finds the pair and the PDLL set folds the dequant's extui + uitofp
// into one cast.
// RUN: mlir-opt %examples/seed_decode_4096x32x128.mlir \
// RUN:   --load-dialect-plugin=%qforge_plugin \
// RUN:   --transform-preload-library=transform-library-paths=%transforms/lib,%transforms/match-and-simplify-dequant.mlir \
// RUN:   --transform-interpreter | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:    ins({{.*}} : tensor<4096x32x128xi8>, tensor<4096x32x1xf32>, tensor<4096x32x1xf32>)
// CHECK-NEXT:  ^bb0(%[[W:.+]]: i8, %[[SCALE:.+]]: f32, %[[ZP:.+]]: f32, %{{.+}}: f32):
// CHECK-NOT:     arith.extui
// CHECK-NEXT:    %[[WF:.+]] = arith.uitofp %[[W]] : i8 to f32
// CHECK-NEXT:    %[[SHIFTED:.+]] = arith.subf %[[WF]], %[[ZP]] : f32
// CHECK-NEXT:    arith.mulf %[[SHIFTED]], %[[SCALE]] : f32
// CHECK:       linalg.generic
// CHECK-SAME:    iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
