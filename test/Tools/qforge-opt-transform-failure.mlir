// A transform script whose matcher finds nothing: the interpreter reports the
// silenceable failure as an error at the transform op (file:line:col) and
// qforge-opt exits non-zero (`not` fails the RUN line on a zero exit code).
// RUN: not qforge-opt %s --transform-interpreter 2>&1 | FileCheck %s

// CHECK-NOT: error
// A plain f32 matmul: no dequantization generic, no multi-reduction
// contraction.
func.func @plain_matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>,
                        %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // CHECK: {{.*}}qforge-opt-transform-failure.mlir:[[@LINE+2]]:30: error: found no dequantization generic
    // CHECK-SAME: feeding a contraction with two or more reduction dims
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %dequant {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}
