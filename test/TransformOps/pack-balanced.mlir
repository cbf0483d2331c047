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

// -----

// With a tile overhead of 1 (a tile of t costs t + 1) and up to 9 tokens,
// the tile count minimizes count * (tile + 1): M = 17 two tiles of 9 (as
// many rows as three of 6, one overhead fewer); M = 128 sixteen of 8
// (fifteen of 9 would cover 135 rows); M = 9 one of 9 (not balanced down
// to two of 5); M = 16 two of 8; M = 3 one of 3.
// CHECK-LABEL: func.func @tile_overhead
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x2x9x16xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<16x2x8x16xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x9x16xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x2x8x16xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x3x16xf32>)
func.func @tile_overhead(%b: tensor<32x64xf32>, %a17: tensor<17x64xf32>, %c17: tensor<17x32xf32>, %a128: tensor<128x64xf32>, %c128: tensor<128x32xf32>, %a9: tensor<9x64xf32>, %c9: tensor<9x32xf32>, %a16: tensor<16x64xf32>, %c16: tensor<16x32xf32>, %a3: tensor<3x64xf32>, %c3: tensor<3x32xf32>)
    -> (tensor<17x32xf32>, tensor<128x32xf32>, tensor<9x32xf32>, tensor<16x32xf32>, tensor<3x32xf32>) {
  %r17 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a17, %b : tensor<17x64xf32>, tensor<32x64xf32>) outs(%c17 : tensor<17x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<17x32xf32>
  %r128 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a128, %b : tensor<128x64xf32>, tensor<32x64xf32>) outs(%c128 : tensor<128x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128x32xf32>
  %r9 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a9, %b : tensor<9x64xf32>, tensor<32x64xf32>) outs(%c9 : tensor<9x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<9x32xf32>
  %r16 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a16, %b : tensor<16x64xf32>, tensor<32x64xf32>) outs(%c16 : tensor<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a3, %b : tensor<3x64xf32>, tensor<32x64xf32>) outs(%c3 : tensor<3x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<3x32xf32>
  return %r17, %r128, %r9, %r16, %r3 : tensor<17x32xf32>, tensor<128x32xf32>, tensor<9x32xf32>, tensor<16x32xf32>, tensor<3x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %g17, %g128, %g9, %g16, %g3 = transform.split_handle %mm
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %p17, %t17, %r17 = transform.qforge.pack_balanced %g17 packed_sizes = [9, 16, 0] balance_dims = [0] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %p128, %t128, %r128 = transform.qforge.pack_balanced %g128 packed_sizes = [9, 16, 0] balance_dims = [0] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %p9, %t9, %r9 = transform.qforge.pack_balanced %g9 packed_sizes = [9, 16, 0] balance_dims = [0] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %p16, %t16, %r16 = transform.qforge.pack_balanced %g16 packed_sizes = [9, 16, 0] balance_dims = [0] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    %p3, %t3, %r3 = transform.qforge.pack_balanced %g3 packed_sizes = [9, 16, 0] balance_dims = [0] {tile_overhead = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
    // expected-remark @below {{17 tokens -> 9 : i64}}
    transform.debug.emit_param_as_remark %t17, "17 tokens ->" : !transform.param<i64>
    // expected-remark @below {{128 tokens -> 8 : i64}}
    transform.debug.emit_param_as_remark %t128, "128 tokens ->" : !transform.param<i64>
    // expected-remark @below {{9 tokens -> 9 : i64}}
    transform.debug.emit_param_as_remark %t9, "9 tokens ->" : !transform.param<i64>
    // expected-remark @below {{16 tokens -> 8 : i64}}
    transform.debug.emit_param_as_remark %t16, "16 tokens ->" : !transform.param<i64>
    // expected-remark @below {{3 tokens -> 3 : i64}}
    transform.debug.emit_param_as_remark %t3, "3 tokens ->" : !transform.param<i64>
    transform.yield
  }
}
