// Quantized matmuls qforge recognises (a multiply-accumulate with two
// reduction dims reading an int-to-float dequantization of an input) but
// cannot bring to the canonical form without copying weights or
// activation: an error at the contraction naming what is missing.
// RUN: qforge-opt --split-input-file --verify-diagnostics --qforge-normalize-dequant-contraction %s

// This file: the bodies family (its positive cases are normalize-dequant-contraction-bodies.mlir).

#id = affine_map<(n, g, k) -> (n, g, k)>
#pg = affine_map<(n, g, k) -> (n, g)>
// A dequantization body qforge does not read (the zero-point added).
func.func @zero_point_added(%w: tensor<8x2x4xi8>, %s: tensor<8x2xf32>, %z: tensor<8x2xf32>, %x: tensor<2x4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %di = tensor.empty() : tensor<8x2x4xf32>
  %d = linalg.generic {indexing_maps = [#id, #pg, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %z : tensor<8x2x4xi8>, tensor<8x2xf32>, tensor<8x2xf32>) outs(%di : tensor<8x2x4xf32>) {
  ^bb0(%a: i8, %b: f32, %c: f32, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    %sh = arith.addf %f, %c : f32
    %v = arith.mulf %sh, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x2x4xf32>
  // expected-error @+1 {{a dequantization body other than (tofp(w) - z) * s}}
  %r = linalg.generic {indexing_maps = [affine_map<(n, g, k) -> (g, k)>, #id, affine_map<(n, g, k) -> (n)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<2x4xf32>, tensor<8x2x4xf32>) outs(%acc : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %o : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
