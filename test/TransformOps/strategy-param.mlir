// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Tests for transform.qforge.strategy_param: a number of the row's
// qforge.strategy_params dictionary, found on the function the root holds
// (or on the root, or its ancestors), returned as a param that an op
// takes (here the remark shows it).

func.func @f() attributes {qforge.strategy_params = {pack_rows = 64 : i64, lanes_8 = 1 : i64}} {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{64 : i64}}
    transform.debug.emit_param_as_remark %rows : !transform.param<i64>
    %lanes = transform.qforge.strategy_param "lanes_8" in %module : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{1 : i64}}
    transform.debug.emit_param_as_remark %lanes : !transform.param<i64>
    transform.yield
  }
}

// -----

// Found on an ancestor of the root (the function holding a matched op).
func.func @g(%x: f32) -> f32 attributes {qforge.strategy_params = {chains = 2 : i64}} {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addf"]} in %module : (!transform.any_op) -> !transform.any_op
    %chains = transform.qforge.strategy_param "chains" in %add : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{2 : i64}}
    transform.debug.emit_param_as_remark %chains : !transform.param<i64>
    transform.yield
  }
}

// -----

// `default N`: N where no dictionary names the number (a switch most rows
// leave off); a row's own value wins over the default.
func.func @h() attributes {qforge.strategy_params = {magnitude_times_sign = 1 : i64}} {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %named = transform.qforge.strategy_param "magnitude_times_sign" in %module default 0 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{1 : i64}}
    transform.debug.emit_param_as_remark %named : !transform.param<i64>
    %absent = transform.qforge.strategy_param "chains" in %module default 3 : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{3 : i64}}
    transform.debug.emit_param_as_remark %absent : !transform.param<i64>
    transform.yield
  }
}
