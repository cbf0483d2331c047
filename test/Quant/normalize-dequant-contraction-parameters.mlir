// qforge-normalize-dequant-contraction: each producer's spelling of the
// group-quantized matmul becomes the seed's form (docs/forms.md) -- weights
// NxGxK read through the identity, parameters NxGx1 through (d0, d1, 0),
// (tofp(w) - z) * s, activation 1xMxGxK, result 1xMxN, iterators
// [p, p, p, r, r] -- with reshapes (views) around it and no copy of the
// weights. The inputs come from examples/gen_producer_kernel.py.
// This file: parameters: G x N scales and zero-points (transposed), a constant
// zero-point (llama.cpp's q4_0), none (symmetric).
// RUN: qforge-opt --split-input-file --qforge-normalize-dequant-contraction %s | FileCheck %s

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[PG:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG: #[[ACT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// llama.cpp's q4_0 as a user transcribes it: u4 weights, a constant
// zero-point of 8, the cast straight from i4. The constant becomes a splat
// NxGx1 input; the chain is kept as written.
// CHECK-LABEL: func.func @q4_0(
// CHECK: %[[EIGHT:.+]] = arith.constant dense<8.000000e+00> : tensor<8x2x1xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[PG]], #[[PG]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %{{.+}}, %[[EIGHT]] : tensor<8x2x4xi4>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: i4,
// CHECK-NEXT: %[[WF:.+]] = arith.uitofp %[[IN]] : i4 to f32
// CHECK-NEXT: arith.subf %[[WF]]
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @q4_0(%weights: tensor<8x2x4xi4>, %scales: tensor<8x2xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<8xf32>) -> tensor<8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #param, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x2x4xi4>, tensor<8x2xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
    ^bb0(%w: i4, %scale: f32, %out: f32):
      %wf = arith.uitofp %w : i4 to f32
      %zp = arith.constant 8.000000e+00 : f32
      %shifted = arith.subf %wf, %zp : f32
      %v = arith.mulf %shifted, %scale : f32
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

// -----
// Symmetric, signed, the scale first: s * tofp(w) becomes tofp(w) * s.
// CHECK-LABEL: func.func @symmetric(
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[PG]], #[[ID]]]
// CHECK: arith.extsi
// CHECK-NEXT: %[[WF:.+]] = arith.sitofp
// CHECK-NEXT: %[[V:.+]] = arith.mulf %[[WF]], %
// CHECK-NEXT: linalg.yield %[[V]]
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @symmetric(%weights: tensor<8x2x4xi8>, %scales: tensor<8x2xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<8xf32>) -> tensor<8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #param, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x2x4xi8>, tensor<8x2xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
    ^bb0(%w: i8, %scale: f32, %out: f32):
      %w32 = arith.extsi %w : i8 to i32
      %wf = arith.sitofp %w32 : i32 to f32
      %v = arith.mulf %scale, %wf : f32
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
// The next module (@transposed) reads its parameters through (d1, d0, 0).
// CHECK: #[[TPG:.+]] = affine_map<(d0, d1, d2) -> (d1, d0, 0)>

// -----

// Parameters stored GxN: kept so (no per-call transpose), expanded to
// GxNx1 and read through (d1, d0, 0); the factoring and the pack
// propagation take the permutation (a packed strategy packs them once).
// CHECK-LABEL: func.func @transposed(
// CHECK-SAME: %[[W8:.+]]: tensor<8x2x4xi8>, %[[S:.+]]: tensor<2x8xf32>, %[[Z:.+]]: tensor<2x8xf32>
// CHECK-NOT: linalg.transpose
// CHECK-DAG: %[[S3:.+]] = tensor.expand_shape %[[S]] {{.*}} into tensor<2x8x1xf32>
// CHECK-DAG: %[[Z3:.+]] = tensor.expand_shape %[[Z]] {{.*}} into tensor<2x8x1xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[TPG]], #[[TPG]], #[[ID]]]
// CHECK-SAME: ins(%[[W8]], %[[S3]], %[[Z3]] :
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d1, d0)>
func.func @transposed(%weights: tensor<8x2x4xi8>, %scales: tensor<2x8xf32>, %zero_points: tensor<2x8xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<8xf32>) -> tensor<8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #param, #param, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x2x4xi8>, tensor<2x8xf32>, tensor<2x8xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
    ^bb0(%w: i8, %scale: f32, %zp: f32, %out: f32):
      %w32 = arith.extui %w : i8 to i32
      %wf = arith.uitofp %w32 : i32 to f32
      %shifted = arith.subf %wf, %zp : f32
      %v = arith.mulf %shifted, %scale : f32
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
