// qforge-normalize-dequant-contraction: each producer's spelling of the
// group-quantized matmul becomes the seed's form (docs/forms.md) -- weights
// NxGxK read through the identity, parameters NxGx1 through (d0, d1, 0),
// (tofp(w) - z) * s, activation 1xMxGxK, result 1xMxN, iterators
// [p, p, p, r, r] -- with reshapes (views) around it and no copy of the
// weights. The inputs come from examples/gen_producer_kernel.py.
// This file: dequantization bodies: the scale distributed, tofp(w) * s - z * s.
// RUN: qforge-opt --split-input-file --qforge-normalize-dequant-contraction %s | FileCheck %s

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[PG:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG: #[[ACT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// The scale distributed, tofp(w) * s - z * s: becomes (tofp(w) - z) * s.
// CHECK-LABEL: func.func @distributed(
// CHECK: ^bb0(%{{.+}}: i8, %[[SC:.+]]: f32, %[[ZP:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[WF:.+]] = arith.uitofp
// CHECK-NEXT: %[[SH:.+]] = arith.subf %[[WF]], %[[ZP]]
// CHECK-NEXT: %[[V:.+]] = arith.mulf %[[SH]], %[[SC]]
// CHECK-NEXT: linalg.yield %[[V]]
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @distributed(%weights: tensor<8x2x4xi8>, %scales: tensor<8x2xf32>, %zero_points: tensor<8x2xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<8xf32>) -> tensor<8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #param, #param, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x2x4xi8>, tensor<8x2xf32>, tensor<8x2xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
    ^bb0(%w: i8, %scale: f32, %zp: f32, %out: f32):
      %w32 = arith.extui %w : i8 to i32
      %wf = arith.uitofp %w32 : i32 to f32
      %ws = arith.mulf %wf, %scale : f32
      %zs = arith.mulf %zp, %scale : f32
      %v = arith.subf %ws, %zs : f32
      linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  %matmul = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>],
      iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<2x4xf32>, tensor<8x2x4xf32>)
      outs(%acc : tensor<8xf32>) {
    ^bb0(%in: f32, %wd: f32, %o: f32):
      %p = arith.mulf %in, %wd : f32
      %s = arith.addf %p, %o : f32
      linalg.yield %s : f32
  } -> tensor<8xf32>
  return %matmul : tensor<8xf32>
}
