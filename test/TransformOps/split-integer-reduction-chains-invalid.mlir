// RUN: qforge-opt %s --split-input-file --verify-diagnostics

// transform.qforge.split_integer_reduction_chains: one chain is no split.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{chains must be at least 2}}
    transform.qforge.split_integer_reduction_chains %root {chains = 1} : !transform.any_op
    transform.yield
  }
}
