// qforge-normalize-dequant-contraction: each producer's spelling of the
// group-quantized matmul becomes the seed's form (docs/forms.md) -- weights
// NxGxK read through the identity, parameters NxGx1 through (d0, d1, 0),
// (tofp(w) - z) * s, activation 1xMxGxK, result 1xMxN, iterators
// [p, p, p, r, r] -- with reshapes (views) around it and no copy of the
// weights. The inputs come from examples/gen_producer_kernel.py.
// This file: layouts: the seed's own form (untouched), IREE's global-opt and batched
// spellings, torch-mlir's (reshapes around the pair), several token dims, a
// dynamic token count.
// RUN: qforge-opt --split-input-file --qforge-normalize-dequant-contraction %s | FileCheck %s

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[PG:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG: #[[ACT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// The seed's own form is canonical: left untouched (no reshape added).
// CHECK-LABEL: func.func @seed(
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: return
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @seed(%weights: tensor<8x2x4xi8>,
    %scales: tensor<8x2x1xf32>,
    %zero_points: tensor<8x2x1xf32>,
    %x: tensor<1x1x2x4xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x2x4xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x2x4xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x2x4xf32>, tensor<8x2x4xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

// -----

// IREE global-opt (grouped_quantized_matmul_reassociate): NxG parameters,
// GxK activation, N result.
// CHECK-LABEL: func.func @iree(
// CHECK-SAME: %[[W8:.+]]: tensor<8x2x4xi8>, %[[S:.+]]: tensor<8x2xf32>, %[[Z:.+]]: tensor<8x2xf32>, %[[X:.+]]: tensor<2x4xf32>) -> tensor<8xf32>
// CHECK-DAG: %[[S3:.+]] = tensor.expand_shape %[[S]] {{\[\[}}0], [1, 2]] output_shape [8, 2, 1]
// CHECK-DAG: %[[Z3:.+]] = tensor.expand_shape %[[Z]] {{\[\[}}0], [1, 2]] output_shape [8, 2, 1]
// CHECK: %[[DQ:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[PG]], #[[PG]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[W8]], %[[S3]], %[[Z3]] :
// CHECK: arith.extui
// CHECK-NEXT: %[[WF:.+]] = arith.uitofp
// CHECK-NEXT: %[[SH:.+]] = arith.subf %[[WF]]
// CHECK-NEXT: arith.mulf %[[SH]]
// CHECK: %[[X4:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 2, 4]
// CHECK: %[[ACC:.+]] = linalg.fill {{.*}} -> tensor<1x1x8xf32>
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [#[[ACT]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[X4]], %[[DQ]] : tensor<1x1x2x4xf32>, tensor<8x2x4xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[MM]] {{\[\[}}0, 1, 2]] : tensor<1x1x8xf32> into tensor<8xf32>
// CHECK-NEXT: return %[[R]]
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @iree(%weights: tensor<8x2x4xi8>, %scales: tensor<8x2xf32>, %zero_points: tensor<8x2xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
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

// Batched, M the leading dim: MxGxK activation, MxN result.
// CHECK-LABEL: func.func @iree_batched(
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] output_shape [1, 3, 2, 4] : tensor<3x2x4xf32> into tensor<1x3x2x4xf32>
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [#[[ACT]], #[[W]], #[[OUT]]]
// CHECK-SAME: outs(%{{.+}} : tensor<1x3x8xf32>)
// CHECK: tensor.collapse_shape %[[MM]] {{\[\[}}0, 1], [2]] : tensor<1x3x8xf32> into tensor<3x8xf32>
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @iree_batched(%weights: tensor<8x2x4xi8>, %scales: tensor<8x2xf32>, %zero_points: tensor<8x2xf32>, %x: tensor<3x2x4xf32>) -> tensor<3x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<3x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<3x8xf32>) -> tensor<3x8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #param, #param, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x2x4xi8>, tensor<8x2xf32>, tensor<8x2xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
    ^bb0(%w: i8, %scale: f32, %zp: f32, %out: f32):
      %w32 = arith.extui %w : i8 to i32
      %wf = arith.uitofp %w32 : i32 to f32
      %shifted = arith.subf %wf, %zp : f32
      %v = arith.mulf %shifted, %scale : f32
      linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  %matmul = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<3x2x4xf32>, tensor<8x2x4xf32>)
      outs(%acc : tensor<3x8xf32>) {
    ^bb0(%in: f32, %wd: f32, %o: f32):
      %p = arith.mulf %in, %wd : f32
      %s = arith.addf %p, %o : f32
      linalg.yield %s : f32
  } -> tensor<3x8xf32>
  return %matmul : tensor<3x8xf32>
}

// -----

// torch-mlir: expand_shape on the weights and the activation, a cast on the
// result. Already in the canonical loop form: left as it is.
// CHECK-LABEL: func.func @torch(
// CHECK: %[[WE:.+]] = tensor.expand_shape %arg0 {{.*}} : tensor<8x8xi8> into tensor<8x2x4xi8>
// CHECK: %[[XE:.+]] = tensor.expand_shape %arg3 {{.*}} : tensor<1x3x8xf32> into tensor<1x3x2x4xf32>
// CHECK: %[[DQ:.+]] = linalg.generic {{.*}} ins(%[[WE]], %arg1, %arg2 :
// CHECK: linalg.generic {{.*}} ins(%[[XE]], %[[DQ]] :
// CHECK: tensor.cast
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#param = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @torch(%weights: tensor<8x8xi8>, %scales: tensor<8x2x1xf32>, %zero_points: tensor<8x2x1xf32>, %x: tensor<1x3x8xf32>) -> tensor<1x3x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %wq = tensor.expand_shape %weights [[0], [1, 2]] output_shape [8, 2, 4]
      : tensor<8x8xi8> into tensor<8x2x4xi8>
  %xg = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 3, 2, 4]
      : tensor<1x3x8xf32> into tensor<1x3x2x4xf32>
  %result_init = tensor.empty() : tensor<1x3x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x4xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #param, #param, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%wq, %scales, %zero_points : tensor<8x2x4xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
      outs(%dequant_init : tensor<8x2x4xf32>) {
    ^bb0(%w: i8, %scale: f32, %zp: f32, %out: f32):
      %w32 = arith.extui %w : i8 to i32
      %wf = arith.uitofp %w32 : i32 to f32
      %shifted = arith.subf %wf, %zp : f32
      %v = arith.mulf %shifted, %scale : f32
      linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  %matmul = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%xg, %dequant : tensor<1x3x2x4xf32>, tensor<8x2x4xf32>)
      outs(%acc : tensor<1x3x8xf32>) {
    ^bb0(%in: f32, %wd: f32, %o: f32):
      %p = arith.mulf %in, %wd : f32
      %s = arith.addf %p, %o : f32
      linalg.yield %s : f32
  } -> tensor<1x3x8xf32>
  %cast = tensor.cast %matmul : tensor<1x3x8xf32> to tensor<1x3x8xf32>
  return %cast : tensor<1x3x8xf32>
}

// -----

// Two token dims (batch x sequence, 2 x 3) become one M = 6 (same-rank
// reshapes go through one dim: still views).
// CHECK-LABEL: func.func @two_token_dims(
// CHECK: tensor.collapse_shape %{{.+}} {{.*}} : tensor<2x3x2x4xf32> into tensor<48xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<1x6x2x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ACT]], #[[W]], #[[OUT]]]
// CHECK-SAME: outs(%{{.+}} : tensor<1x6x8xf32>)
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x6x8xf32> into tensor<48xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<2x3x8xf32>
func.func @two_token_dims(%w: tensor<8x2x4xi8>, %s: tensor<8x2x1xf32>, %x: tensor<2x3x2x4xf32>) -> tensor<2x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (n, g, k)>, affine_map<(n, g, k) -> (n, g, 0)>, affine_map<(n, g, k) -> (n, g, k)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x2x1xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, g, k) -> (b, m, g, k)>, affine_map<(b, m, n, g, k) -> (n, g, k)>, affine_map<(b, m, n, g, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<2x3x2x4xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<2x3x8xf32>
  return %r : tensor<2x3x8xf32>
}

// -----

// A token count known only at run time (torch-mlir's ?xK activation): the
// activation and the result are expanded to 1 x ? x ..., their sizes read
// from the tensors (tensor.dim), the weights untouched.
// CHECK-LABEL: func.func @dynamic_tokens(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x2x4xf32>, %[[ACC:[a-z0-9]+]]: tensor<?x8xf32>)
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x2x4xf32>
// CHECK:         %[[X4:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2], [3]] output_shape [1, %[[M]], 2, 4] : tensor<?x2x4xf32> into tensor<1x?x2x4xf32>
// CHECK:         %[[ACC3:.+]] = tensor.expand_shape %[[ACC]] {{\[\[}}0, 1], [2]] output_shape [1, %{{.+}}, 8] : tensor<?x8xf32> into tensor<1x?x8xf32>
// CHECK:         %[[R:.+]] = linalg.generic {{.*}} ins(%[[X4]], %{{.+}} : tensor<1x?x2x4xf32>, tensor<8x2x4xf32>) outs(%[[ACC3]] : tensor<1x?x8xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[\[}}0, 1], [2]] : tensor<1x?x8xf32> into tensor<?x8xf32>
func.func @dynamic_tokens(%w: tensor<8x2x4xi8>, %s: tensor<8x2xf32>, %x: tensor<?x2x4xf32>, %acc: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (n, g, k)>, affine_map<(n, g, k) -> (n, g)>, affine_map<(n, g, k) -> (n, g, k)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x2xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, g, k) -> (m, g, k)>, affine_map<(m, n, g, k) -> (n, g, k)>, affine_map<(m, n, g, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<?x2x4xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
