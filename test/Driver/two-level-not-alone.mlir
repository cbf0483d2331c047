// RUN: not qforge-compile %s -o %t.o 2>&1 | FileCheck %s

// A two-level matmul (llama.cpp's K-quants, docs/gguf.md) with an op after
// it would be compiled apart -- outlined into a function of its own -- and
// outlining does not carry its sub-blocks' decoding along: refused at the
// matmul, by name, before any script runs.

// CHECK: two-level-not-alone.mlir:[[@LINE+28]]:8: error: a two-level matmul (llama.cpp's K-quants) is compiled only as the one matmul of its kernel so far, with nothing around it (docs/gguf.md)
// CHECK: qforge-compile: error: the two-level matmul is not alone in its kernel (see above)
#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
func.func @two_level_then_square(%qs: tensor<2x1x4x32xi8>, %scale: tensor<2x1x4x2xf32>, %offset: tensor<2x1x4x2xf32>,
                                 %x: tensor<1x1x4x2x32xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x4x2x32xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #param, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x4x32xi8>, tensor<2x1x4x2xf32>, tensor<2x1x4x2xf32>)
      outs(%init : tensor<2x1x4x2x32xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x4x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>, affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>, affine_map<(m, n, b, c, h, l) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x4x2x32xf32>, tensor<2x1x4x2x32xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  %r_init = tensor.empty() : tensor<1x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<1x2xf32>) outs(%r_init : tensor<1x2xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %square = arith.mulf %a, %a : f32
    linalg.yield %square : f32
  } -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}
