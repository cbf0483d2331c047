// examples/gen_decode_kernel.py 128 2 32 with the arguments in another
// order: weights, activation, scales, zero points (test/Tools/ab-signature.test)
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @quantized_matmul(%weights: tensor<128x2x32xi8>,
    %x: tensor<1x1x2x32xf32>,
    %scales: tensor<128x2x1xf32>,
    %zero_points: tensor<128x2x1xf32>) -> tensor<1x1x128xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x128xf32>
  %dequant_init = tensor.empty() : tensor<128x2x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x128xf32>) -> tensor<1x1x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<128x2x32xi8>, tensor<128x2x1xf32>, tensor<128x2x1xf32>)
      outs(%dequant_init : tensor<128x2x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<128x2x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x2x32xf32>, tensor<128x2x32xf32>)
      outs(%acc : tensor<1x1x128xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x128xf32>
  return %matvec : tensor<1x1x128xf32>
}
