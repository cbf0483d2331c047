// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// transform.qforge.hoist_operand_conversion: its target must be a
// linalg.generic, and the input must exist.

func.func @not_a_generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %add = transform.structured.match ops{["arith.addf"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a linalg.generic}}
    %c, %u = transform.qforge.hoist_operand_conversion %add {input = 0}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @input_out_of_range(%a: tensor<4xi8>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xi8>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: i8, %o: f32):
    %f = arith.uitofp %x : i8 to f32
    linalg.yield %f : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{input 1 is out of range: the generic has 1 inputs}}
    %c, %u = transform.qforge.hoist_operand_conversion %g {input = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
