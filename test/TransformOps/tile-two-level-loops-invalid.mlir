// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// A generic without qforge.two_level_groups (not made by
// factor_two_level_contraction): the op cannot know its group dims.
#id = affine_map<(a, b) -> (a, b)>
func.func @unmarked(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%y : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected a generic of factor_two_level_contraction (carrying qforge.two_level_groups)}}
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// More group dims recorded than the op has loops.
#id2 = affine_map<(a, b) -> (a, b)>
func.func @too_few_loops(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-note @below {{payload op}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%y : tensor<2x3xf32>) attrs = {qforge.two_level_groups = 4 : i64} {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the payload op has fewer loops than sub_blocks of 4 group dims needs}}
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{dims must be leading_groups, tokens_and_groups, sub_blocks or step}}
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
