// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.unroll_dividing: a factor of at most 0 is no unrolling.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{at_most must be positive}}
    transform.qforge.unroll_dividing %loop {at_most = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// Both the attribute and a param, or neither.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %at_most = transform.param.constant 4 : i64 -> !transform.param<i64>
    // expected-error @below {{expects at_most as an attribute or a param, not both nor neither}}
    transform.qforge.unroll_dividing %loop at_most = %at_most {at_most = 4} : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects at_most as an attribute or a param, not both nor neither}}
    transform.qforge.unroll_dividing %loop : !transform.any_op
    transform.yield
  }
}

// -----

// A param that does not hold one positive integer: a definite failure.
func.func @loop(%out: memref<12xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %v, %out[%i] : memref<12xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{expected the at_most param to hold one positive integer}}
    transform.qforge.unroll_dividing %loop at_most = %zero : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
