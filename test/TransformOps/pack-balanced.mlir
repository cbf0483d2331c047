// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Tests for transform.qforge.pack_balanced: structured.pack, with the tile
// of the loops in balance_dims lowered to ceil(r / ceil(r / s)) for the
// loop's range r -- as many tiles as s gives, each as small as covers r --
// and the sizes used returned as params. A batched matmul (m, n, k): up to
// 6 tokens (m), 16 rows (n, kept).

// M = 2: one tile of 2 tokens (not 6).
// CHECK-LABEL: func.func @two_tokens
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x2x16xf32>)
func.func @two_tokens(%a: tensor<2x64xf32>, %b: tensor<32x64xf32>, %c: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x64xf32>, tensor<32x64xf32>) outs(%c : tensor<2x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x32xf32>
  return %r : tensor<2x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %packed, %tokens, %rows = transform.qforge.pack_balanced %mm packed_sizes = [6, 16, 0] balance_dims = [0]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{tokens 2 : i64}}
    transform.debug.emit_param_as_remark %tokens, "tokens" : !transform.param<i64>
    // expected-remark @below {{rows 16 : i64}}
    transform.debug.emit_param_as_remark %rows, "rows" : !transform.param<i64>
    transform.yield
  }
}

// -----

// M = 1: a tile of 2, not 1 (a unit tile's pack folds into a reshape that
// the returned handle would not follow).
// CHECK-LABEL: func.func @one_token
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x2x16xf32>)
func.func @one_token(%a: tensor<1x64xf32>, %b: tensor<32x64xf32>, %c: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<1x64xf32>, tensor<32x64xf32>) outs(%c : tensor<1x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x32xf32>
  return %r : tensor<1x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %packed, %tokens, %rows = transform.qforge.pack_balanced %mm packed_sizes = [6, 16, 0] balance_dims = [0]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{tokens 2 : i64}}
    transform.debug.emit_param_as_remark %tokens, "tokens" : !transform.param<i64>
    transform.yield
  }
}

// -----

// M = 8: two tiles of 4 (not two of 6, 12 rows); M = 17: three of 6.
// CHECK-LABEL: func.func @eight_and_seventeen
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x2x4x16xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<3x2x6x16xf32>)
func.func @eight_and_seventeen(%a: tensor<8x64xf32>, %c: tensor<8x32xf32>, %a17: tensor<17x64xf32>,
                               %c17: tensor<17x32xf32>, %b: tensor<32x64xf32>) -> (tensor<8x32xf32>, tensor<17x32xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<32x64xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  %r17 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a17, %b : tensor<17x64xf32>, tensor<32x64xf32>) outs(%c17 : tensor<17x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<17x32xf32>
  return %r, %r17 : tensor<8x32xf32>, tensor<17x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %g8, %g17 = transform.split_handle %mm : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p8, %t8, %r8 = transform.qforge.pack_balanced %g8 packed_sizes = [6, 16, 0] balance_dims = [0]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{8 tokens -> 4 : i64}}
    transform.debug.emit_param_as_remark %t8, "8 tokens ->" : !transform.param<i64>
    %p17, %t17, %r17 = transform.qforge.pack_balanced %g17 packed_sizes = [6, 16, 0] balance_dims = [0]
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{17 tokens -> 6 : i64}}
    transform.debug.emit_param_as_remark %t17, "17 tokens ->" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A size given as a param (a library sequence's lane count): packed and
// returned as a static one is, here balanced too (M = 8: two tiles of 4).
// CHECK-LABEL: func.func @param_sizes
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x2x4x16xf32>)
func.func @param_sizes(%a: tensor<8x64xf32>, %b: tensor<32x64xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf32>, tensor<32x64xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %six = transform.param.constant 6 : i64 -> !transform.param<i64>
    %sixteen = transform.param.constant 16 : i64 -> !transform.param<i64>
    %packed, %tokens, %rows = transform.qforge.pack_balanced %mm packed_sizes = [%six, %sixteen, 0] balance_dims = [0]
      : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{tokens 4 : i64}}
    transform.debug.emit_param_as_remark %tokens, "tokens" : !transform.param<i64>
    // expected-remark @below {{rows 16 : i64}}
    transform.debug.emit_param_as_remark %rows, "rows" : !transform.param<i64>
    transform.yield
  }
}
