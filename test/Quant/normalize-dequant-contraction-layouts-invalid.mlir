// Quantized matmuls qforge recognises (a multiply-accumulate with two
// reduction dims reading an int-to-float dequantization of an input) but
// cannot bring to the canonical form without copying weights or
// activation: an error at the contraction naming what is missing.
// RUN: qforge-opt --split-input-file --verify-diagnostics --qforge-normalize-dequant-contraction %s

// This file: the layouts family (its positive cases are normalize-dequant-contraction-layouts.mlir).

#id = affine_map<(n, g, k) -> (n, g, k)>
#pg = affine_map<(n, g, k) -> (n, g)>

// Weights stored K-major (GxKxN): streaming rows of N would need a copy.
func.func @weights_k_major(%w: tensor<2x4x8xi8>, %s: tensor<8x2xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (g, k, n)>, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<2x4x8xi8>, tensor<8x2xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  // expected-error @+1 {{group-quantized matmul in a form qforge does not support: the weights is stored as (group (G), element (K), row (N)) but must be (row (N), group (G), element (K)) up to unit dims}}
  %r = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (g, k)>, #id, affine_map<(n, g, k) -> (n)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<2x4xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(n, g, k) -> (n, g, k)>
#pg = affine_map<(n, g, k) -> (n, g)>
// The activation stored KxG: the group is not the outer dim of K.
func.func @activation_k_outer(%w: tensor<8x2x4xi8>, %s: tensor<8x2xf32>, %x: tensor<4x2xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x2xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  // expected-error @+1 {{the activation is stored as (element (K), group (G)) but must be (group (G), element (K))}}
  %r = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (k, g)>, #id, affine_map<(n, g, k) -> (n)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<4x2xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(n, g, k) -> (n, g, k)>
#pg = affine_map<(n, g, k) -> (n, g)>
// Only the token count may be dynamic: weights of dynamic N are refused at
// the contraction.
func.func @dynamic_rows(%w: tensor<?x2x4xi8>, %s: tensor<?x2xf32>, %x: tensor<3x2x4xf32>, %acc: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %w, %c0 : tensor<?x2x4xi8>
  %di = tensor.empty(%n) : tensor<?x2x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<?x2x4xi8>, tensor<?x2xf32>) outs(%di : tensor<?x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<?x2x4xf32>
  // expected-error @+1 {{a dequantization of dynamic size: only the token count may be dynamic (N, G and K must be static)}}
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, g, k) -> (m, g, k)>, affine_map<(m, n, g, k) -> (n, g, k)>, affine_map<(m, n, g, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<3x2x4xf32>, tensor<?x2x4xf32>) outs(%acc : tensor<3x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}

// -----

#id = affine_map<(n, g, k) -> (n, g, k)>
#pg = affine_map<(n, g, k) -> (n, g)>
// Two dynamic token dims (batch and sequence) would make M their product:
// one may be dynamic.
func.func @two_dynamic_token_dims(%w: tensor<8x2x4xi8>, %s: tensor<8x2xf32>, %x: tensor<?x?x2x4xf32>, %acc: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x2xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  // expected-error @+1 {{several dynamic token loops (e.g. batch and sequence); one may be dynamic}}
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, g, k) -> (b, m, g, k)>, affine_map<(b, m, n, g, k) -> (n, g, k)>, affine_map<(b, m, n, g, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<?x?x2x4xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<?x?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<?x?x8xf32>
  return %r : tensor<?x?x8xf32>
}

// -----

#id = affine_map<(n, g, k) -> (n, g, k)>
// Scales read through (n, k): they vary along the weights' innermost dim,
// so the "group" they name is the element dim. Said as such (it was blamed
// on the activation's layout).
func.func @scales_along_k(%w: tensor<8x2x4xi8>, %s: tensor<8x4xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [#id, affine_map<(n, g, k) -> (n, k)>, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x4xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %v = arith.mulf %f, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  // expected-error @+1 {{group-quantized matmul in a form qforge does not support: the scales vary along the weights' innermost dim (d2 of the dequantization): qforge reads one scale per group of consecutive weights, constant along that dim (e.g. scales read through (d0, d1), not (d0, d2))}}
  %r = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (g, k)>, #id, affine_map<(n, g, k) -> (n)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<2x4xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
