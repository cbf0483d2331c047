// RUN: qforge-opt %s --split-input-file --verify-diagnostics

// transform.qforge.unroll_dividing: a factor of at most 0 is no unrolling.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{at_most must be positive}}
    transform.qforge.unroll_dividing %loop {at_most = 0} : !transform.any_op
    transform.yield
  }
}
