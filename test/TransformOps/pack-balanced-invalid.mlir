// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Negative tests for transform.qforge.pack_balanced.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{balance_dims must name packed loops (a nonzero entry of packed_sizes)}}
    %p, %t = transform.qforge.pack_balanced %mm packed_sizes = [6, 0, 0] balance_dims = [1]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected one param result per nonzero entry of packed_sizes}}
    %p, %t = transform.qforge.pack_balanced %mm packed_sizes = [6, 16, 0] balance_dims = [0]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{tile_overhead must not be negative}}
    %p, %t, %r = transform.qforge.pack_balanced %mm packed_sizes = [6, 16, 0] balance_dims = [0] {tile_overhead = -1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A token count only known at run time: nothing to balance to.
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<32x64xf32>, %c: tensor<?x32xf32>) -> tensor<?x32xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x64xf32>, tensor<32x64xf32>) outs(%c : tensor<?x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop 0 has a dynamic range: nothing to balance to}}
    %p, %t, %r = transform.qforge.pack_balanced %mm packed_sizes = [6, 16, 0] balance_dims = [0]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// A size param must hold one positive integer: not a negative one...
func.func @negative_param(%a: tensor<8x64xf32>, %b: tensor<32x64xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x64xf32>, tensor<32x64xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %minus = transform.param.constant -16 : i64 -> !transform.param<i64>
    // expected-error @below {{expected the packed size param to hold one positive integer}}
    %p, %t = transform.qforge.pack_balanced %mm packed_sizes = [0, %minus, 0] balance_dims = []
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    transform.yield
  }
}

// -----

// ... nor two values.
func.func @two_values(%a: tensor<8x64xf32>, %b: tensor<32x64xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<8x64xf32>, tensor<32x64xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.param.constant 16 : i64 -> !transform.param<i64>
    %b = transform.param.constant 8 : i64 -> !transform.param<i64>
    %two = transform.merge_handles %a, %b : !transform.param<i64>
    // expected-error @below {{expected the packed size param to hold one positive integer}}
    %p, %t = transform.qforge.pack_balanced %mm packed_sizes = [0, %two, 0] balance_dims = []
      : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    transform.yield
  }
}
