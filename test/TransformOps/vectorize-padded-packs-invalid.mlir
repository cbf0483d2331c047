// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.vectorize_padded_packs takes linalg.pack ops only.

func.func @not_a_pack(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.copy ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a linalg.pack}}
    transform.qforge.vectorize_padded_packs %c : !transform.any_op
    transform.yield
  }
}
