// RUN: qforge-opt --split-input-file --qforge-block-reductions-for-cache \
// RUN:   -canonicalize %s | FileCheck %s

// The seed's contraction: tokens and rows in tiles of 8 (the unit batch gets
// no loop), the two reduction dims in their order, the rows innermost.

// CHECK-DAG: #[[ROWS:.+]] = affine_map<(d0) -> (-d0 + 4100, 8)>
// CHECK-DAG: #[[X:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d2, d3)>
// CHECK-DAG: #[[R:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
// CHECK-LABEL: func.func @seed_contraction
// CHECK:         scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %[[C8:.+]] iter_args
// CHECK:           scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %[[C8]] iter_args
// CHECK:             affine.min #[[ROWS]](%[[N]])
// CHECK:             tensor.extract_slice %{{.+}}[%[[N]], 0, 0] [%{{.+}}, 32, 128]
// CHECK:             linalg.generic
// CHECK-SAME:          indexing_maps = [#[[X]], #[[W]], #[[R]]]
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "reduction", "reduction", "parallel"]
// CHECK-SAME:          ins(%{{.+}}, %{{.+}} : tensor<1x?x32x128xf32>, tensor<?x32x128xf32>)
// CHECK-SAME:          outs(%{{.+}} : tensor<1x?x?xf32>)
// CHECK:             tensor.insert_slice
// CHECK-NOT:     linalg.generic
#activation = affine_map<(b, m, n, g, k) -> (b, m, g, k)>
#weights = affine_map<(b, m, n, g, k) -> (n, g, k)>
#result = affine_map<(b, m, n, g, k) -> (b, m, n)>
func.func @seed_contraction(%x: tensor<1x17x32x128xf32>, %w: tensor<4100x32x128xf32>,
                            %init: tensor<1x17x4100xf32>) -> tensor<1x17x4100xf32> {
  %r = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x17x32x128xf32>, tensor<4100x32x128xf32>)
      outs(%init : tensor<1x17x4100xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x17x4100xf32>
  return %r : tensor<1x17x4100xf32>
}

// -----

// A named matmul with a dynamic token count: generalized, then tiled the same
// way; the token loop runs to the dynamic extent.

// CHECK-LABEL: func.func @dynamic_tokens
// CHECK:         %[[TOKENS:.+]] = tensor.dim
// CHECK:         scf.for %{{.+}} = %{{.+}} to %[[TOKENS]] step
// CHECK:           scf.for
// CHECK:             linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:          outs(%{{.+}} : tensor<?x8xf32>)
// CHECK-NOT:     linalg.matmul
func.func @dynamic_tokens(%a: tensor<?x4096xf32>, %b: tensor<4096x64xf32>,
                          %c: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x4096xf32>, tensor<4096x64xf32>)
                     outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

// Smaller than a tile: no loop, only the order (reduction outside).

// CHECK-LABEL: func.func @smaller_than_a_tile
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
func.func @smaller_than_a_tile(%a: tensor<4x16xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%a : tensor<4x16xf32>) outs(%c : tensor<4xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}

// -----

// No reduction (the dequantization): left as it is.

// CHECK-LABEL: func.func @elementwise
// CHECK-NOT:     scf.for
// CHECK:         linalg.add
func.func @elementwise(%a: tensor<64xf32>, %c: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.add ins(%a, %a : tensor<64xf32>, tensor<64xf32>)
                  outs(%c : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Two outputs, one not indexed by the parallel d1: d1 accumulates into it, so
// moving the reduction d2 outside d1 would reorder its terms. Left untiled,
// in its own loop order.

// CHECK-LABEL: func.func @output_without_a_parallel_dim
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0)>
#cell = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @output_without_a_parallel_dim(%a: tensor<64x64x64xf32>, %r: tensor<64xf32>,
                                         %c: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<64x64xf32>) {
  %0:2 = linalg.generic {indexing_maps = [#in, #row, #cell],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a : tensor<64x64x64xf32>) outs(%r, %c : tensor<64xf32>, tensor<64x64xf32>) {
  ^bb0(%x: f32, %accr: f32, %accc: f32):
    %sr = arith.addf %accr, %x : f32
    %sc = arith.addf %accc, %x : f32
    linalg.yield %sr, %sc : f32, f32
  } -> (tensor<64xf32>, tensor<64x64xf32>)
  return %0#0, %0#1 : tensor<64xf32>, tensor<64x64xf32>
}
