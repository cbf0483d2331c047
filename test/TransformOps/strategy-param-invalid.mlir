// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.strategy_param fails definitely, naming the parameter,
// when no dictionary holds it, when its value is not an integer, and when
// two dictionaries disagree.

func.func @f() attributes {qforge.strategy_params = {pack_rows = 64 : i64}} {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    // expected-error @below {{no strategy parameter 'lanes_8' (qforge.strategy_params, recorded by strategy selection from the table's row); a script run by hand writes the number with transform.param.constant}}
    %lanes = transform.qforge.strategy_param "lanes_8" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

// expected-note @below {{it is not an integer here}}
func.func @f() attributes {qforge.strategy_params = {pack_rows = "sixty-four"}} {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    // expected-error @below {{no strategy parameter 'pack_rows'}}
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}

// -----

func.func @f() attributes {qforge.strategy_params = {pack_rows = 64 : i64}} {
  return
}
func.func @g() attributes {qforge.strategy_params = {pack_rows = 16 : i64}} {
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    // expected-error @below {{two strategy parameter dictionaries disagree on 'pack_rows'}}
    %rows = transform.qforge.strategy_param "pack_rows" in %module : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }
}
