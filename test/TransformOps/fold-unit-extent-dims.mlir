// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.fold_unit_extent_dims: the unit dims of every
// generic fold, as upstream's linalg-fold-unit-extent-dims does, except in
// a generic naming its foldable dims (qforge.foldable_unit_dims), where only
// those do; the attribute is gone afterwards.

#in = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// d0 (a row tile of one) is foldable; d1 (one block of tokens) and d2 (one
// group) are kept although of extent one.
// CHECK-LABEL: func.func @named
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<1x1x8xf32>) outs(%{{.+}} : tensor<1x1xf32>)
// CHECK-NOT:     qforge.foldable_unit_dims
func.func @named(%x: tensor<1x1x1x8xf32>, %init: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x1x1x8xf32>) outs(%init : tensor<1x1x1xf32>) attrs = {qforge.foldable_unit_dims = array<i64: 0>} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}

// Without the attribute: every unit dim folds.
// CHECK-LABEL: func.func @unnamed
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction"]
// CHECK-SAME:      ins(%{{.+}} : tensor<8xf32>) outs(%{{.+}} : tensor<f32>)
func.func @unnamed(%x: tensor<1x1x1x8xf32>, %init: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x1x1x8xf32>) outs(%init : tensor<1x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %folded = transform.qforge.fold_unit_extent_dims %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
