// The floats family (its positive cases are
// normalize-dequant-contraction-floats.mlir): f16, bf16 and f32 in any mix
// are computed in f32; any other float type is refused at the contraction.
// RUN: qforge-opt --split-input-file --verify-diagnostics --qforge-normalize-dequant-contraction %s

#id = affine_map<(n, g, k) -> (n, g, k)>
#pg = affine_map<(n, g, k) -> (n, g)>
#act = affine_map<(n, g, k) -> (g, k)>
#out = affine_map<(n, g, k) -> (n)>
// An f64 activation and result.
func.func @f64_matmul(%w: tensor<8x2x4xi8>, %s: tensor<8x2xf64>, %x: tensor<2x4xf64>) -> tensor<8xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x2x4xf64>
  %dq = linalg.generic {indexing_maps = [#id, #pg, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x2x4xi8>, tensor<8x2xf64>) outs(%e : tensor<8x2x4xf64>) {
  ^bb0(%wi: i8, %si: f64, %o: f64):
    %wf = arith.uitofp %wi : i8 to f64
    %v = arith.mulf %wf, %si : f64
    linalg.yield %v : f64
  } -> tensor<8x2x4xf64>
  %init = tensor.empty() : tensor<8xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<8xf64>) -> tensor<8xf64>
  // expected-error @+1 {{group-quantized matmul in a form qforge does not support: an element type other than f16, bf16 or f32 for the activation, the dequantized weights or the result}}
  %mm = linalg.generic {indexing_maps = [#act, #id, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %dq : tensor<2x4xf64>, tensor<8x2x4xf64>) outs(%acc : tensor<8xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %p = arith.mulf %a, %b : f64
    %q = arith.addf %p, %c : f64
    linalg.yield %q : f64
  } -> tensor<8xf64>
  return %mm : tensor<8xf64>
}
