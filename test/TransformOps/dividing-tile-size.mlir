// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Tests for transform.qforge.dividing_tile_size: the largest divisor of a
// loop's range that is at most `at_most`, or the whole range when that
// divisor is under half of `at_most`. The payload is a sum over groups,
// the loop sizes below (dim 1) being the group counts of the decode shapes.

func.func @sums(%a32: tensor<4x32xf32>, %a86: tensor<4x86xf32>, %a97: tensor<4x97xf32>,
                %a96: tensor<4x96xf32>, %a20: tensor<4x20xf32>, %a48: tensor<4x48xf32>,
                %init: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s32 = linalg.reduce ins(%a32 : tensor<4x32xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %s86 = linalg.reduce ins(%a86 : tensor<4x86xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %s97 = linalg.reduce ins(%a97 : tensor<4x97xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %s96 = linalg.reduce ins(%a96 : tensor<4x96xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %s20 = linalg.reduce ins(%a20 : tensor<4x20xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %s48 = linalg.reduce ins(%a48 : tensor<4x48xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  return %s32, %s86, %s97, %s96, %s20, %s48 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduces = transform.structured.match ops{["linalg.reduce"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %s32, %s86, %s97, %s96, %s20, %s48 = transform.split_handle %reduces
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // 32 <= 48: one tile.
    %t32 = transform.qforge.dividing_tile_size %s32 {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{32 groups -> 32 : i64}}
    transform.debug.emit_param_as_remark %t32, "32 groups ->" : !transform.param<i64>
    // 86 = 2 x 43: two tiles of 43.
    %t86 = transform.qforge.dividing_tile_size %s86 {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{86 groups -> 43 : i64}}
    transform.debug.emit_param_as_remark %t86, "86 groups ->" : !transform.param<i64>
    // 97 is prime: tiles of 1 would be under half of 48, so one tile.
    %t97 = transform.qforge.dividing_tile_size %s97 {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{97 groups -> 97 : i64}}
    transform.debug.emit_param_as_remark %t97, "97 groups ->" : !transform.param<i64>
    // 96 = 2 x 48: at_most itself divides.
    %t96 = transform.qforge.dividing_tile_size %s96 {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{96 groups -> 48 : i64}}
    transform.debug.emit_param_as_remark %t96, "96 groups ->" : !transform.param<i64>
    // 20 with at_most 8: 5 is the largest divisor <= 8, and not under 4.
    %t20 = transform.qforge.dividing_tile_size %s20 {dim = 1, at_most = 8}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{20 groups, at most 8 -> 5 : i64}}
    transform.debug.emit_param_as_remark %t20, "20 groups, at most 8 ->" : !transform.param<i64>
    // at_least = 1: any divisor will do, never the whole range (the packed
    // strategy's row tiles per iteration): 20 with at most 3 -> 2.
    %t20b = transform.qforge.dividing_tile_size %s20 {dim = 1, at_most = 3, at_least = 1}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{20 groups, at most 3, at least 1 -> 2 : i64}}
    transform.debug.emit_param_as_remark %t20b, "20 groups, at most 3, at least 1 ->" : !transform.param<i64>
    // 97 with at most 4, at least 1: 1 (97 is prime), not 97.
    %t97b = transform.qforge.dividing_tile_size %s97 {dim = 1, at_most = 4, at_least = 1}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{97 groups, at most 4, at least 1 -> 1 : i64}}
    transform.debug.emit_param_as_remark %t97b, "97 groups, at most 4, at least 1 ->" : !transform.param<i64>
    // A range of exactly at_most: one tile.
    %t48 = transform.qforge.dividing_tile_size %s48 {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{48 groups -> 48 : i64}}
    transform.debug.emit_param_as_remark %t48, "48 groups ->" : !transform.param<i64>
    // zero_for_one_tile: one tile is 0 ("do not tile"), two tiles are not.
    %z48 = transform.qforge.dividing_tile_size %s48 {dim = 1, at_most = 48, zero_for_one_tile}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{48 groups, zero for one tile -> 0 : i64}}
    transform.debug.emit_param_as_remark %z48, "48 groups, zero for one tile ->" : !transform.param<i64>
    %z96 = transform.qforge.dividing_tile_size %s96 {dim = 1, at_most = 48, zero_for_one_tile}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{96 groups, zero for one tile -> 48 : i64}}
    transform.debug.emit_param_as_remark %z96, "96 groups, zero for one tile ->" : !transform.param<i64>
    transform.yield
  }
}

// -----

// A dynamic range has no divisor to pick.

func.func @dynamic(%a: tensor<4x?xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{payload op}}
  %s = linalg.reduce ins(%a : tensor<4x?xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  return %s : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop 1 has a dynamic range}}
    %t = transform.qforge.dividing_tile_size %reduce {dim = 1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// No loop 2 in a two-loop op.

func.func @no_such_loop(%a: tensor<4x32xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{payload op}}
  %s = linalg.reduce ins(%a : tensor<4x32xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  return %s : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a linalg op with a loop 2}}
    %t = transform.qforge.dividing_tile_size %reduce {dim = 2, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// A dim beyond 32 bits must not wrap around to a small one.

func.func @huge_dim(%a: tensor<4x32xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{payload op}}
  %s = linalg.reduce ins(%a : tensor<4x32xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  return %s : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduce = transform.structured.match ops{["linalg.reduce"]} in %root
      : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a linalg op with a loop 4294967296}}
    %t = transform.qforge.dividing_tile_size %reduce {dim = 4294967296, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.dividing_tile_size' op at_most must be positive}}
    %t = transform.qforge.dividing_tile_size %root {dim = 1, at_most = 0}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.dividing_tile_size' op at_least must be in [1, at_most]}}
    %t = transform.qforge.dividing_tile_size %root {dim = 1, at_most = 4, at_least = 5}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{'transform.qforge.dividing_tile_size' op dim must not be negative}}
    %t = transform.qforge.dividing_tile_size %root {dim = -1, at_most = 48}
      : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// footprint_operand: at_most and at_least count elements of operand 0; one
// iteration of dim 1 (a group) covers the other loops it is indexed by: 4
// rows x the group's elements. 24576 elements are 48 groups of 128 and 96
// groups of 64.
func.func @footprints(%g128: tensor<4x86x128xf32>, %g64: tensor<4x64x64xf32>, %g64k: tensor<4x172x64xf32>,
                      %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = linalg.reduce ins(%g128 : tensor<4x86x128xf32>) outs(%init : tensor<4xf32>) dimensions = [1, 2]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %b = linalg.reduce ins(%g64 : tensor<4x64x64xf32>) outs(%init : tensor<4xf32>) dimensions = [1, 2]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  %c = linalg.reduce ins(%g64k : tensor<4x172x64xf32>) outs(%init : tensor<4xf32>) dimensions = [1, 2]
    (%x: f32, %acc: f32) { %y = arith.addf %x, %acc : f32
                           linalg.yield %y : f32 }
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %reduces = transform.structured.match ops{["linalg.reduce"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %a, %b, %c = transform.split_handle %reduces
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // 86 groups of 128: at most 48 groups, as {at_most = 48} without footprint.
    %ta = transform.qforge.dividing_tile_size %a {dim = 1, at_most = 24576, footprint_operand = 0}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{86 x 128 -> 43 : i64}}
    transform.debug.emit_param_as_remark %ta, "86 x 128 ->" : !transform.param<i64>
    // 64 groups of 64 (4096 elements): one block.
    %tb = transform.qforge.dividing_tile_size %b {dim = 1, at_most = 24576, footprint_operand = 0}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{64 x 64 -> 64 : i64}}
    transform.debug.emit_param_as_remark %tb, "64 x 64 ->" : !transform.param<i64>
    // 172 groups of 64 (K = 11008): two blocks of 86, the bytes of 43 x 128.
    %tc = transform.qforge.dividing_tile_size %c {dim = 1, at_most = 24576, footprint_operand = 0}
      : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{172 x 64 -> 86 : i64}}
    transform.debug.emit_param_as_remark %tc, "172 x 64 ->" : !transform.param<i64>
    transform.yield
  }
}
