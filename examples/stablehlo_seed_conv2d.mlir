// The fake-quantized conv2d layer of the StableHLO issue
// (../shared/seeds/000_*.txt, exported from PyTorch), in the quant dialect
// with the si8 storage that broke its bytecode serialization: quantize +
// dequantize the input (per-tensor, scale 1) and the weights (narrow range
// [-127, 127]), NCHW convolution, bias, ReLU, quantize + dequantize the
// output.
!act = !quant.uniform<si8:f32, 1.000000e+00>
!wts = !quant.uniform<si8<-127:127>:f32, 1.000000e+00>
#bias = affine_map<(n, c, h, w) -> (c)>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @conv2d_layer(%bias: tensor<10xf32>, %weights: tensor<10x3x3x3xf32>,
                        %input: tensor<1x3x10x10xf32>) -> tensor<1x10x8x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %xq = quant.qcast %input : tensor<1x3x10x10xf32> to tensor<1x3x10x10x!act>
  %x = quant.dcast %xq : tensor<1x3x10x10x!act> to tensor<1x3x10x10xf32>
  %wq = quant.qcast %weights : tensor<10x3x3x3xf32> to tensor<10x3x3x3x!wts>
  %w = quant.dcast %wq : tensor<10x3x3x3x!wts> to tensor<10x3x3x3xf32>
  %init = tensor.empty() : tensor<1x10x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x10x8x8xf32>) -> tensor<1x10x8x8xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<10x3x3x3xf32>)
      outs(%acc : tensor<1x10x8x8xf32>) -> tensor<1x10x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #bias, #id],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x10x8x8xf32>, tensor<10xf32>) outs(%init : tensor<1x10x8x8xf32>) {
  ^bb0(%c: f32, %b: f32, %out: f32):
    %sum = arith.addf %c, %b : f32
    %r = arith.maximumf %sum, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x10x8x8xf32>
  %yq = quant.qcast %relu : tensor<1x10x8x8xf32> to tensor<1x10x8x8x!act>
  %y = quant.dcast %yq : tensor<1x10x8x8x!act> to tensor<1x10x8x8xf32>
  return %y : tensor<1x10x8x8xf32>
}
