// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.split_loop_carried_sums: one chain is no split.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{chains must be at least 2}}
    transform.qforge.split_loop_carried_sums %loop {chains = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// A payload op that is not an scf.for: a definite failure naming it.
// expected-note @below {{payload op}}
func.func @not_a_loop() {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected an scf.for}}
    transform.qforge.split_loop_carried_sums %func {chains = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// A chains param below 2: a definite failure.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    // expected-error @below {{expected the chains param to hold an integer of at least 2}}
    transform.qforge.split_loop_carried_sums %loop chains = %one : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

// Both the attribute and a param.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %two = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{expects chains as an attribute or a param, not both}}
    transform.qforge.split_loop_carried_sums %loop chains = %two {chains = 2} : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
