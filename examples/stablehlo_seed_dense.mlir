// The fake-quantized dense layer of the StableHLO issue's HLO
// (f32[3,5] x f32[10,5]^T + f32[10], ../shared/seeds/000_*.txt), in the
// quant dialect with si8 storage: quantize + dequantize the input and the
// weights (scale 1, zero point 0 as exported), matmul with the weights
// transposed, bias, quantize + dequantize the output.
!q = !quant.uniform<si8:f32, 1.000000e+00>
#bias = affine_map<(m, n) -> (n)>
#id = affine_map<(m, n) -> (m, n)>
func.func @dense_layer(%bias: tensor<10xf32>, %weights: tensor<10x5xf32>,
                       %input: tensor<3x5xf32>) -> tensor<3x10xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %xq = quant.qcast %input : tensor<3x5xf32> to tensor<3x5x!q>
  %x = quant.dcast %xq : tensor<3x5x!q> to tensor<3x5xf32>
  %wq = quant.qcast %weights : tensor<10x5xf32> to tensor<10x5x!q>
  %w = quant.dcast %wq : tensor<10x5x!q> to tensor<10x5xf32>
  %init = tensor.empty() : tensor<3x10xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<3x10xf32>) -> tensor<3x10xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                       affine_map<(m, n, k) -> (n, k)>,
                                       affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<3x5xf32>, tensor<10x5xf32>) outs(%acc : tensor<3x10xf32>) -> tensor<3x10xf32>
  %biased = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<3x10xf32>, tensor<10xf32>) outs(%init : tensor<3x10xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3x10xf32>
  %yq = quant.qcast %biased : tensor<3x10xf32> to tensor<3x10x!q>
  %y = quant.dcast %yq : tensor<3x10x!q> to tensor<3x10xf32>
  return %y : tensor<3x10xf32>
}
