// transform.qforge.quantize_activations_and_factor's generics, run
// (mlir-runner, loops): the activation's per-group maximum is taken over
// magnitudes -- a group whose largest element is negative scales by it --
// and a NaN in the activation reaches the result as NaN, as the f32
// reference gives (the maximum is an integer max of the sign-cleared bits;
// a NaN's exceed infinity's).
// RUN: split-file %s %t
// RUN: qforge-opt %t/kernel.mlir --transform-preload-library=transform-library-paths=%t/script.mlir --transform-interpreter \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" --convert-linalg-to-loops \
// RUN:   --convert-vector-to-scf --expand-strided-metadata --lower-affine --convert-scf-to-cf \
// RUN:   --finalize-memref-to-llvm --convert-vector-to-llvm --convert-math-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// Weights 2 with zero-point 1 and scale 0.5 (dequantized: 0.5), x = 1
// everywhere but x[0, 0, 1, 5] = -3. Groups 0, 2, 3: amax 1, xq = 127, each
// 0.5 * 128 = 64. Group 1: amax 3, xq = 42 (and -127 for the -3), so
// 0.5 * (3 / 127) * (127 * 42 - 127) = 61.5 (the f32 reference: 62). Taking
// -3 as the maximum instead of its magnitude would make group 1 add 0.
// CHECK: ( 253.5, 253.5, 253.5, 253.5, 253.5, 253.5, 253.5, 253.5 )
// With x[0, 0, 2, 7] = NaN every row's sum is NaN.
// CHECK-NEXT: ( nan, nan, nan, nan, nan, nan, nan, nan )

//--- kernel.mlir

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @kernel(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %fpad = arith.constant 0.0 : f32
  %minus3 = arith.constant -3.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %w = arith.constant dense<2> : tensor<8x4x128xi8>
  %s = arith.constant dense<0.5> : tensor<8x4x1xf32>
  %z = arith.constant dense<1.0> : tensor<8x4x1xf32>
  %ones = arith.constant dense<1.0> : tensor<1x1x4x128xf32>
  %x = tensor.insert %minus3 into %ones[%c0, %c0, %c1, %c5] : tensor<1x1x4x128xf32>
  %r = func.call @kernel(%w, %s, %z, %x) : (tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>, tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32>
  %v = vector.transfer_read %r[%c0, %c0, %c0], %fpad : tensor<1x1x8xf32>, vector<8xf32>
  vector.print %v : vector<8xf32>
  %x_nan = tensor.insert %nan into %x[%c0, %c0, %c2, %c7] : tensor<1x1x4x128xf32>
  %r_nan = func.call @kernel(%w, %s, %z, %x_nan) : (tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>, tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32>
  %v_nan = vector.transfer_read %r_nan[%c0, %c0, %c0], %fpad : tensor<1x1x8xf32>, vector<8xf32>
  vector.print %v_nan : vector<8xf32>
  return
}

//--- script.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
