// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.dividing_tile_size: a negative footprint operand.

func.func @sum(%a: tensor<4x32x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %s = linalg.reduce ins(%a : tensor<4x32x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1, 2]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  return %s : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{footprint_operand must not be negative}}
    %t = transform.qforge.dividing_tile_size %r {dim = 1, at_most = 48, footprint_operand = -1}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}
