// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Tests for transform.qforge.tile_two_level_loops: a generic that
// factor_two_level_contraction made (it records its contraction's number of
// group dims as qforge.two_level_groups) tiled by 1 along the loops `dims`
// names, innermost loops first in the second result.

// Group sums of q6_K's form, loops (n, b, h, k1, k0, l1, m, l): five group
// dims (b and the four sub-block dims h, k1, k0, l1). `sub_blocks` tiles the
// four sub-block dims, not n, b, m or the lanes: four nested loops of 2, the
// tile one sub-block (8 x 1 x 1 x 1 x 1 x 1 x 1 x 16).
// CHECK-LABEL: func.func @sub_blocks_of_q6_k
// CHECK-COUNT-4: scf.for %{{.+}} = %c0{{.*}} to %c2{{.*}} step %c1
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.+}} : tensor<8x1x1x1x1x1x1x16xf32>)
// CHECK-SAME:        outs(%{{.+}} : tensor<1x8x16xf32>)
// CHECK-SAME:        qforge.two_level_groups = 5 : i64
#in = affine_map<(n, b, h, k1, k0, l1, m, l) -> (n, b, h, k1, k0, l1, m, l)>
#out = affine_map<(n, b, h, k1, k0, l1, m, l) -> (m, n, l)>
func.func @sub_blocks_of_q6_k(%p: tensor<8x1x2x2x2x2x1x16xf32>, %acc: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out],
      iterator_types = ["parallel", "reduction", "reduction", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%p : tensor<8x1x2x2x2x2x1x16xf32>) outs(%acc : tensor<1x8x16xf32>) attrs = {qforge.two_level_groups = 5 : i64} {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  return %r : tensor<1x8x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// With a lane group (qforge.two_level_lane_groups, position 4 among the
// group dims b, h, k1, k0, l1: l1, the two halves of 16 bytes that follow each other in
// q6_K's ql), `sub_blocks` leaves it whole: three loops, the tile two
// sub-blocks (8 x 1 x 1 x 1 x 1 x 2 x 1 x 16) into the accumulator's 2 x 16
// lanes.
// CHECK-LABEL: func.func @sub_blocks_with_a_lane_group
// CHECK-COUNT-3: scf.for %{{.+}} = %c0{{.*}} to %c2{{.*}} step %c1
// CHECK-NOT:       scf.for
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.+}} : tensor<8x1x1x1x1x2x1x16xf32>)
// CHECK-SAME:        outs(%{{.+}} : tensor<1x8x2x16xf32>)
#in = affine_map<(n, b, h, k1, k0, l1, m, l) -> (n, b, h, k1, k0, l1, m, l)>
#out = affine_map<(n, b, h, k1, k0, l1, m, l) -> (m, n, l1, l)>
func.func @sub_blocks_with_a_lane_group(%p: tensor<8x1x2x2x2x2x1x16xf32>, %acc: tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out],
      iterator_types = ["parallel", "reduction", "reduction", "reduction", "reduction", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<8x1x2x2x2x2x1x16xf32>) outs(%acc : tensor<1x8x2x16xf32>)
      attrs = {qforge.two_level_groups = 5 : i64, qforge.two_level_lane_groups = array<i64: 4>} {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8x2x16xf32>
  return %r : tensor<1x8x2x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The loops innermost first: unroll_dividing of that handle, in order,
// unrolls each loop whole (an outer one first would leave the inner ones'
// copies rolled): no loop left, 16 sub-blocks.
// CHECK-LABEL: func.func @unrolled_inner_first
// CHECK-NOT:      scf.for
// CHECK-COUNT-16: linalg.generic
// CHECK-NOT:      scf.for
// CHECK:          return
#in2 = affine_map<(n, b, h, k1, k0, l1, m, l) -> (n, b, h, k1, k0, l1, m, l)>
#out2 = affine_map<(n, b, h, k1, k0, l1, m, l) -> (m, n, l)>
func.func @unrolled_inner_first(%p: tensor<8x1x2x2x2x2x1x16xf32>, %acc: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %r = linalg.generic {indexing_maps = [#in2, #out2],
      iterator_types = ["parallel", "reduction", "reduction", "reduction", "reduction", "reduction", "parallel", "parallel"]}
      ins(%p : tensor<8x1x2x2x2x2x1x16xf32>) outs(%acc : tensor<1x8x16xf32>) attrs = {qforge.two_level_groups = 5 : i64} {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  return %r : tensor<1x8x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "sub_blocks"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.qforge.unroll_dividing %loops {at_most = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// The same generic, q4_K-shaped (four group dims: loops n, b, hs, cc, h, m,
// l): `leading_groups` tiles loops 0-3, `tokens_and_groups` 0-4, `step`
// loop 5 -- as a tile_using_for of [1, 1, 1, 1], [1, 1, 1, 1, 1] and
// [0, 0, 0, 0, 0, 1] would.
// CHECK-LABEL: func.func @q4_k_roles
// CHECK-COUNT-4: scf.for
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<1x1x1x1x3x5x7xf32>)
#id7 = affine_map<(a, b, c, d, e, f, g) -> (a, b, c, d, e, f, g)>
func.func @q4_k_roles(%x: tensor<2x2x2x2x3x5x7xf32>, %y: tensor<2x2x2x2x3x5x7xf32>) -> tensor<2x2x2x2x3x5x7xf32> {
  %r = linalg.generic {indexing_maps = [#id7, #id7],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x2x2x3x5x7xf32>) outs(%y : tensor<2x2x2x2x3x5x7xf32>) attrs = {qforge.two_level_groups = 4 : i64} {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x2x2x3x5x7xf32>
  return %r : tensor<2x2x2x2x3x5x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "leading_groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @tokens_and_groups
// CHECK-COUNT-5: scf.for
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<1x1x1x1x1x5x7xf32>)
#id7b = affine_map<(a, b, c, d, e, f, g) -> (a, b, c, d, e, f, g)>
func.func @tokens_and_groups(%x: tensor<2x2x2x2x3x5x7xf32>, %y: tensor<2x2x2x2x3x5x7xf32>) -> tensor<2x2x2x2x3x5x7xf32> {
  %r = linalg.generic {indexing_maps = [#id7b, #id7b],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x2x2x3x5x7xf32>) outs(%y : tensor<2x2x2x2x3x5x7xf32>) attrs = {qforge.two_level_groups = 4 : i64} {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x2x2x3x5x7xf32>
  return %r : tensor<2x2x2x2x3x5x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "tokens_and_groups"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @step
// CHECK:         scf.for %{{.+}} = %c0{{.*}} to %c5{{.*}} step %c1
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}} : tensor<2x2x2x2x3x1x7xf32>)
#id7c = affine_map<(a, b, c, d, e, f, g) -> (a, b, c, d, e, f, g)>
func.func @step(%x: tensor<2x2x2x2x3x5x7xf32>, %y: tensor<2x2x2x2x3x5x7xf32>) -> tensor<2x2x2x2x3x5x7xf32> {
  %r = linalg.generic {indexing_maps = [#id7c, #id7c],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x2x2x2x3x5x7xf32>) outs(%y : tensor<2x2x2x2x3x5x7xf32>) attrs = {qforge.two_level_groups = 4 : i64} {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x2x2x3x5x7xf32>
  return %r : tensor<2x2x2x2x3x5x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops, %innermost = transform.qforge.tile_two_level_loops %op dims = "step"
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
