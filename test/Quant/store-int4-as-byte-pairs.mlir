// RUN: qforge-opt %s --qforge-store-int4-as-byte-pairs | FileCheck %s

// The seed form with signed 4-bit weights (examples/gen_decode_kernel.py
// 8 2 16 --int4 --signed): the weights become 8x2x8 bytes of two nibbles,
// the dequant walks (n, g, k/2, k%2) and takes its nibble with a shift by
// 4 * (k%2); the scale and zero-point keep their (d0, d1, 0) map; the
// contraction gets the split too (three reduction dims, the activation a
// free expand_shape), and no collapse is left between the two.

// CHECK-DAG: #[[BYTES:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[GROUP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0)>
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ACT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>
// CHECK-DAG: #[[WTS:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4, d5)>
// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:    %[[W:.+]]: tensor<8x2x8xi8>, %{{.+}}: tensor<8x2x1xf32>, %{{.+}}: tensor<8x2x1xf32>, %[[X:.+]]: tensor<1x1x2x16xf32>)
// CHECK-SAME:    qforge.int4_byte_pairs = array<i64: 0>
// CHECK-DAG:     %[[FOUR:.+]] = arith.constant 4 : i8
// CHECK:         %[[DEQUANT:.+]] = linalg.generic {indexing_maps = [#[[BYTES]], #[[GROUP]], #[[GROUP]], #[[ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%[[W]], {{.*}} : tensor<8x2x8xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>) outs(%{{.+}} : tensor<8x2x8x2xf32>)
// CHECK-NEXT:    ^bb0(%[[BYTE:.+]]: i8,
// CHECK-NEXT:      %[[WHICH:.+]] = linalg.index 3 : index
// CHECK-NEXT:      %[[WHICH8:.+]] = arith.index_cast %[[WHICH]] : index to i8
// CHECK-NEXT:      %[[SHIFT:.+]] = arith.muli %[[WHICH8]], %[[FOUR]] : i8
// CHECK-NEXT:      %[[SHIFTED:.+]] = arith.shrui %[[BYTE]], %[[SHIFT]] : i8
// CHECK-NEXT:      %[[NIBBLE:.+]] = arith.trunci %[[SHIFTED]] : i8 to i4
// CHECK-NEXT:      arith.extsi %[[NIBBLE]] : i4 to i32
// CHECK:         %[[XS:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 2, 8, 2]
// CHECK:         linalg.generic {indexing_maps = [#[[ACT]], #[[WTS]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%[[XS]], %[[DEQUANT]] : tensor<1x1x2x8x2xf32>, tensor<8x2x8x2xf32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @quantized_matmul(%weights: tensor<8x2x16xi4>,
    %scales: tensor<8x2x1xf32>,
    %zero_points: tensor<8x2x1xf32>,
    %x: tensor<1x1x2x16xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x2x16xi4>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
      outs(%dequant_init : tensor<8x2x16xf32>) {
  ^bb0(%w: i4, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extsi %w : i4 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x2x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x2x16xf32>, tensor<8x2x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

// torch-mlir's 4-bit form: the i4 weights N x K expanded into groups by a
// tensor.expand_shape before the dequantization. The argument becomes N x K/2
// bytes, expanded alike (N x G x K/G/2; the group's innermost dim stays
// even), and the dequantization reads byte pairs as in the forms above (it
// was refused: "qforge reads i4 arguments only as linalg.generic inputs").
// CHECK-LABEL: func.func @torch_form(
// CHECK-SAME:      %[[W:.+]]: tensor<8x16xi8>
// CHECK-SAME:      attributes {qforge.int4_byte_pairs = array<i64: 0>}
// CHECK:         %[[BYTES:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1, 2]] output_shape [8, 2, 8] : tensor<8x16xi8> into tensor<8x2x8xi8>
// CHECK:         linalg.generic {{.*}} ins(%[[BYTES]], %{{.+}}, %{{.+}} : tensor<8x2x8xi8>, tensor<8x2x1xf32>, tensor<8x2x1xf32>) outs(%{{.+}} : tensor<8x2x8x2xf32>)
// CHECK:           arith.shrui
// CHECK:           arith.trunci %{{.+}} : i8 to i4
// CHECK-NOT:     tensor<8x2x16xi4>
func.func @torch_form(%weights: tensor<8x32xi4>, %scales: tensor<8x2x1xf32>,
    %zero_points: tensor<8x2x1xf32>, %x: tensor<1x1x2x16xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %grouped = tensor.expand_shape %weights [[0], [1, 2]] output_shape [8, 2, 16]
      : tensor<8x32xi4> into tensor<8x2x16xi4>
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x2x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%grouped, %scales, %zero_points : tensor<8x2x16xi4>, tensor<8x2x1xf32>, tensor<8x2x1xf32>)
      outs(%dequant_init : tensor<8x2x16xf32>) {
  ^bb0(%w: i4, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i4 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x2x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x2x16xf32>, tensor<8x2x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}
