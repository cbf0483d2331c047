// A function holding a q8_0 and a q4_0 matmul on blocks read in place, with
// --packed-weights: qforge-two-level-as-seed-int4 makes the q4_0 pair the
// 4-bit seed form and names its blocks (argument 1) in
// qforge.int4_byte_pairs. The attribute is the function's; the strategy
// selection takes a matmul as 4-bit only when its weights read a named
// argument, so the q8_0 matmul keeps the 8-bit packed family (it took the
// 4-bit one, whose strategy would read its bytes as nibble pairs).
// Both verify against the reference, f32 and int8 activations.
// REQUIRES: avx512vnni
// RUN: qforge-opt %s --qforge-select-strategy="mcpu=znver5 packed-weights" | FileCheck %s --check-prefix=SELECT
// SELECT: func.func @mixed({{.*}}) {{.*}}qforge.int4_byte_pairs = array<i64: 1>
// SELECT: qforge.strategy = {family = "decode-packed-f32"
// SELECT: qforge.strategy = {family = "decode-packed-int4-f32"
// RUN: qforge-bench %s --packed-weights --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefixes=VERIFY,F32
// RUN: qforge-bench %s --packed-weights --int8-activations --verify --tolerance=1e-5 --time=false 2>&1 | FileCheck %s --check-prefixes=VERIFY,INT8
// F32: compiling @mixed with {{.*}}decode-packed-f32.mlir, {{.*}}decode-packed-int4-f32.mlir
// INT8: compiling @mixed with {{.*}}decode-packed-int8.mlir, {{.*}}decode-packed-int4-int8.mlir
// VERIFY: verify: the results of 2 matmul call(s): normalized {{.*}}
// VERIFY: verify: max_abs_err {{.*}}: PASS

#e_map_q = affine_map<(n, g, e) -> (n, g, e)>
#e_map_d = affine_map<(n, g, e) -> (n, g)>
#e_map_x = affine_map<(m, n, g, e) -> (m, g, e)>
#e_map_w = affine_map<(m, n, g, e) -> (n, g, e)>
#e_map_y = affine_map<(m, n, g, e) -> (m, n)>

// q8_0 (argument 0) and q4_0 (argument 1) blocks in one function.
func.func @mixed(%e_blocks: tensor<8x2x34xi8> {qforge.gguf_type = "q8_0"}, %f_blocks: tensor<8x2x18xi8> {qforge.gguf_type = "q4_0"}, %x: tensor<1x64xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %e_qs = tensor.extract_slice %e_blocks[0, 0, 2] [8, 2, 32] [1, 1, 1] : tensor<8x2x34xi8> to tensor<8x2x32xi8>
  // d: the f16 in the block's first two bytes, little endian.
  %e_d_init = tensor.empty() : tensor<8x2xf16>
  %e_d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%e_blocks, %e_blocks : tensor<8x2x34xi8>, tensor<8x2x34xi8>) outs(%e_d_init : tensor<8x2xf16>) {
  ^bb0(%e_lo: i8, %e_hi: i8, %e_unused: f16):
    %e_lo16 = arith.extui %e_lo : i8 to i16
    %e_hi16 = arith.extui %e_hi : i8 to i16
    %e_c8 = arith.constant 8 : i16
    %e_high = arith.shli %e_hi16, %e_c8 : i16
    %e_bits = arith.ori %e_high, %e_lo16 : i16
    %e_half = arith.bitcast %e_bits : i16 to f16
    linalg.yield %e_half : f16
  } -> tensor<8x2xf16>
  %e_w_init = tensor.empty() : tensor<8x2x32xf32>
  %e_w = linalg.generic {indexing_maps = [#e_map_q, #e_map_d, #e_map_q], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e_qs, %e_d : tensor<8x2x32xi8>, tensor<8x2xf16>) outs(%e_w_init : tensor<8x2x32xf32>) {
  ^bb0(%e_q: i8, %e_scale: f16, %e_unused: f32):
    %e_qf = arith.sitofp %e_q : i8 to f32
    %e_s = arith.extf %e_scale : f16 to f32
    %e_value = arith.mulf %e_qf, %e_s : f32
    linalg.yield %e_value : f32
  } -> tensor<8x2x32xf32>
  %xg = tensor.expand_shape %x [[0], [1, 2]] output_shape [1, 2, 32] : tensor<1x64xf32> into tensor<1x2x32xf32>
  %e_zero = arith.constant 0.0 : f32
  %e_y_init = tensor.empty() : tensor<1x8xf32>
  %e_acc = linalg.fill ins(%e_zero : f32) outs(%e_y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %e_y = linalg.generic {indexing_maps = [#e_map_x, #e_map_w, #e_map_y], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%xg, %e_w : tensor<1x2x32xf32>, tensor<8x2x32xf32>) outs(%e_acc : tensor<1x8xf32>) {
  ^bb0(%e_a: f32, %e_b: f32, %e_out: f32):
    %e_product = arith.mulf %e_a, %e_b : f32
    %e_sum = arith.addf %e_out, %e_product : f32
    linalg.yield %e_sum : f32
  } -> tensor<1x8xf32>
  %f_d_init = tensor.empty() : tensor<8x2xf16>
  %f_d = linalg.generic {indexing_maps = [affine_map<(n, g) -> (n, g, 0)>, affine_map<(n, g) -> (n, g, 1)>, affine_map<(n, g) -> (n, g)>], iterator_types = ["parallel", "parallel"]}
      ins(%f_blocks, %f_blocks : tensor<8x2x18xi8>, tensor<8x2x18xi8>) outs(%f_d_init : tensor<8x2xf16>) {
  ^bb0(%f_lo: i8, %f_hi: i8, %f_unused: f16):
    %f_lo16 = arith.extui %f_lo : i8 to i16
    %f_hi16 = arith.extui %f_hi : i8 to i16
    %f_c8 = arith.constant 8 : i16
    %f_high = arith.shli %f_hi16, %f_c8 : i16
    %f_bits = arith.ori %f_high, %f_lo16 : i16
    %f_half = arith.bitcast %f_bits : i16 to f16
    linalg.yield %f_half : f16
  } -> tensor<8x2xf16>
  %f_scale_init = tensor.empty() : tensor<8x2x2xf32>
  %f_scale = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%f_d : tensor<8x2xf16>) outs(%f_scale_init : tensor<8x2x2xf32>) {
  ^bb0(%f_super: f16, %f_unused: f32):
    %f_superf = arith.extf %f_super : f16 to f32
    linalg.yield %f_superf : f32
  } -> tensor<8x2x2xf32>
  %f_offset_init = tensor.empty() : tensor<8x2x2xf32>
  %f_offset = linalg.generic {indexing_maps = [affine_map<(n, b, h) -> (n, b)>, affine_map<(n, b, h) -> (n, b, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%f_d : tensor<8x2xf16>) outs(%f_offset_init : tensor<8x2x2xf32>) {
  ^bb0(%f_super: f16, %f_unused: f32):
    %f_superf = arith.extf %f_super : f16 to f32
    %f_c8f = arith.constant 8.0 : f32
    %f_value = arith.mulf %f_superf, %f_c8f : f32
    linalg.yield %f_value : f32
  } -> tensor<8x2x2xf32>
  %f_qs = tensor.extract_slice %f_blocks[0, 0, 2] [8, 2, 16] [1, 1, 1] : tensor<8x2x18xi8> to tensor<8x2x16xi8>
  %f_c4 = arith.constant 4 : i8
  %f_c15 = arith.constant 15 : i8
  %f_w_init = tensor.empty() : tensor<8x2x2x16xf32>
  // Element (h, l): nibble h of qs[l], s * q - o of its half-block.
  %f_w = linalg.generic {indexing_maps = [affine_map<(n, b, h, l) -> (n, b, l)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h)>, affine_map<(n, b, h, l) -> (n, b, h, l)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%f_qs, %f_scale, %f_offset : tensor<8x2x16xi8>, tensor<8x2x2xf32>, tensor<8x2x2xf32>) outs(%f_w_init : tensor<8x2x2x16xf32>) {
  ^bb0(%f_byte: i8, %f_s: f32, %f_o: f32, %f_unused: f32):
    %f_h = linalg.index 2 : index
    %f_h8 = arith.index_cast %f_h : index to i8
    %f_shift = arith.muli %f_h8, %f_c4 : i8
    %f_shifted = arith.shrui %f_byte, %f_shift : i8
    %f_nibble = arith.andi %f_shifted, %f_c15 : i8
    %f_q = arith.uitofp %f_nibble : i8 to f32
    %f_sq = arith.mulf %f_q, %f_s : f32
    %f_value = arith.subf %f_sq, %f_o : f32
    linalg.yield %f_value : f32
  } -> tensor<8x2x2x16xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 16] : tensor<1x64xf32> into tensor<1x2x2x16xf32>
  %f_zero = arith.constant 0.0 : f32
  %f_y_init = tensor.empty() : tensor<1x8xf32>
  %f_acc = linalg.fill ins(%f_zero : f32) outs(%f_y_init : tensor<1x8xf32>) -> tensor<1x8xf32>
  %f_y = linalg.generic {indexing_maps = [affine_map<(m, n, b, h, l) -> (m, b, h, l)>, affine_map<(m, n, b, h, l) -> (n, b, h, l)>, affine_map<(m, n, b, h, l) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xe, %f_w : tensor<1x2x2x16xf32>, tensor<8x2x2x16xf32>) outs(%f_acc : tensor<1x8xf32>) {
  ^bb0(%f_a: f32, %f_b: f32, %f_out: f32):
    %f_product = arith.mulf %f_a, %f_b : f32
    %f_sum = arith.addf %f_out, %f_product : f32
    linalg.yield %f_sum : f32
  } -> tensor<1x8xf32>
  return %e_y, %f_y : tensor<1x8xf32>, tensor<1x8xf32>
}
