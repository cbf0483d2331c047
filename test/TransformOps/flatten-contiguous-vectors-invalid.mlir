// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.flatten_contiguous_vectors: bytes_only keeps vectors of
// other element types as they are, loop_carried converts the loops'
// vectors of every type; together they would contradict each other.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects bytes_only or loop_carried, not both}}
    transform.qforge.flatten_contiguous_vectors %f {bytes_only, loop_carried} : !transform.any_op
    transform.yield
  }
}
