// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-local-scope | FileCheck %s
// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s --check-prefix=GONE

// Tests for transform.qforge.factor_packed_dequant_contraction on the packed,
// unit-dim-folded form the packed strategy produces: weights packed as
// (no, g, ki, ni) -- row tiles no, groups g, elements of a group ki, lanes ni
// innermost -- and a contraction over d0 = no, d1 = g, d2 = ni, d3 = ki. The
// first RUN line checks the factored form op by op (maps printed inline);
// the second checks, over each whole function, that nothing computes or
// reads the dequantized f32 weights any more (the dequant's now-dead
// tensor.empty may remain). The scripts tag the result handles with
// transform.annotate so that the checks also show which generic each handle
// holds.

// Asymmetric, unsigned (extui + uitofp): scales and zero-points one per
// (no, g, ni), read through (d0, d1, d3) in the dequant's dims.

// CHECK-LABEL: func.func @packed
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[Z:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NOT:     linalg.generic
//
// activation_sums: xs[g] = sum_ki x[g, ki]; loops (g, ki).
// CHECK:         %[[XS_INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[XS:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<3x8xf32>) outs(%[[XS_INIT]] : tensor<3xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK-NEXT:    ^bb0(%[[XS_IN:[a-z0-9_]+]]: f32, %[[XS_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[XS_ADD:.+]] = arith.addf %[[XS_IN]], %[[XS_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[XS_ADD]] : f32
// CHECK-NEXT:    } -> tensor<3xf32>
//
// partial_sums: p[no, g, ni] = sum_ki x[g, ki] * uitofp(w[no, g, ki, ni]), the
// i8 converted directly (no extui, no zero-point); loops in the weights'
// storage order (no, g, ki, ni), so the weights are read through the
// identity and ki is reduced outside the lanes ni.
// CHECK:         %[[P_INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x3x16xf32>) -> tensor<4x3x16xf32>
// CHECK-NEXT:    %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<3x8xf32>, tensor<4x3x8x16xi8>) outs(%[[P_INIT]] : tensor<4x3x16xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.uitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addf %[[P_MUL]], %[[P_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : f32
// CHECK-NEXT:    } -> tensor<4x3x16xf32>
//
// group_sums: out[no, ni] += sum_g s[no, g, ni] * (p[no, g, ni] - z[no, g, ni] * xs[g]),
// replacing the contraction and accumulating into its init; loops
// (no, g, ni), g reduced.
// CHECK-NEXT:    %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]] : tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<3xf32>, tensor<4x3x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_Z:[a-z0-9_]+]]: f32, %[[G_XS:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: f32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_ZXS:.+]] = arith.mulf %[[G_Z]], %[[G_XS]] : f32
// CHECK-NEXT:      %[[G_SUB:.+]] = arith.subf %[[G_P]], %[[G_ZXS]] : f32
// CHECK-NEXT:      %[[G_MUL:.+]] = arith.mulf %[[G_S]], %[[G_SUB]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_MUL]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NEXT:    } -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[G]] : tensor<4x16xf32>

// GONE-LABEL: func.func @packed
// GONE-NOT:     arith.extui
// GONE-NOT:     -> tensor<4x3x8x16xf32>
// GONE-NOT:     tensor<4x3x8x16xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @packed(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %zero_points: tensor<4x3x16xf32>, %x: tensor<3x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<4x16xf32>
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Signed weights (extsi + sitofp, the scale first in the mulf): the partial
// sums convert the i8 with sitofp directly; the rest is as above.

// CHECK-LABEL: func.func @signed_weights
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[Z:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>, %[[ACC:[a-z0-9_]+]]: tensor<4x16xf32>)
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<3x8xf32>) outs(%{{.+}} : tensor<3xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<3x8xf32>, tensor<4x3x8x16xi8>) outs(%{{.+}} : tensor<4x3x16xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.sitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addf %[[P_MUL]], %[[P_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : f32
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]] : tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<3xf32>, tensor<4x3x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK:           arith.subf
// CHECK:         return %[[G]] : tensor<4x16xf32>

// GONE-LABEL: func.func @signed_weights
// GONE-NOT:     arith.extsi
// GONE-NOT:     arith.uitofp
// GONE-NOT:     -> tensor<4x3x8x16xf32>
// GONE-NOT:     tensor<4x3x8x16xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @signed_weights(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %zero_points: tensor<4x3x16xf32>, %x: tensor<3x8xf32>,
    %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extsi %w : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %scale, %shifted : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Symmetric quantization (no zero-point): no activation sums (the handle is
// empty), and the group sums are s * p.

// CHECK-LABEL: func.func @symmetric
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>, %[[ACC:[a-z0-9_]+]]: tensor<4x16xf32>)
// CHECK-NOT:     tensor<3xf32>
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<3x8xf32>, tensor<4x3x8x16xi8>) outs(%{{.+}} : tensor<4x3x16xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.uitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addf %[[P_MUL]], %[[P_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : f32
// CHECK-NEXT:    } -> tensor<4x3x16xf32>
// CHECK-NEXT:    %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[P]] : tensor<4x3x16xf32>, tensor<4x3x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: f32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_MUL:.+]] = arith.mulf %[[G_S]], %[[G_P]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_MUL]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NEXT:    } -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[G]] : tensor<4x16xf32>

// GONE-LABEL: func.func @symmetric
// GONE-NOT:     arith.subf
// GONE-NOT:     -> tensor<4x3x8x16xf32>
// GONE-NOT:     tensor<4x3x8x16xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @symmetric(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %x: tensor<3x8xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %n = transform.num_associations %sums : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_sums holds 0 : i64}}
    transform.debug.emit_param_as_remark %n, "activation_sums holds" : !transform.param<i64>
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// The contraction's loops in another order than the weights' dims, plus a
// batch dim m the weights do not index: d0 = g, d1 = m, d2 = ki, d3 = no,
// d4 = ni. The partial sums iterate the weights' dims in storage order with
// m just before the lanes: (no, g, ki, m, ni), so that a tile is m x ni
// and p is no x g x m x ni. The group sums iterate in p's order:
// (no, g, m, ni).

// CHECK-LABEL: func.func @reordered_loops_and_batch
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[Z:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[X:[a-z0-9_]+]]: tensor<2x3x8xf32>, %[[ACC:[a-z0-9_]+]]: tensor<2x4x16xf32>)
//
// activation_sums: xs[m, g] = sum_ki x[m, g, ki].
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<2x3x8xf32>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK-SAME:      attrs = {activation_sums}
//
// partial_sums: loops (no, g, ki, m, ni).
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<2x3x8xf32>, tensor<4x3x8x16xi8>) outs(%{{.+}} : tensor<4x3x2x16xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.uitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addf %[[P_MUL]], %[[P_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : f32
//
// group_sums: loops in p's order (no, g, m, ni), g reduced, the lanes
// innermost.
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]] : tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<2x3xf32>, tensor<4x3x2x16xf32>) outs(%[[ACC]] : tensor<2x4x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         return %[[G]] : tensor<2x4x16xf32>

// GONE-LABEL: func.func @reordered_loops_and_batch
// GONE-NOT:     -> tensor<4x3x8x16xf32>
// GONE-NOT:     tensor<4x3x8x16xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d2)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d3, d0, d2, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d1, d3, d4)>
func.func @reordered_loops_and_batch(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %zero_points: tensor<4x3x16xf32>, %x: tensor<2x3x8xf32>,
    %acc: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %matmul = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["reduction", "parallel", "reduction", "parallel", "parallel"]}
      ins(%x, %dequant : tensor<2x3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<2x4x16xf32>
  return %matmul : tensor<2x4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// One dequant feeding two contractions (as for two activations against the
// same weights), its scales and zero-points left unfolded as 4x3x1x16 and
// read through (d0, d1, 0, d3): both pairs are factored, the group sums
// read the parameters through the same constant 0, and the dequant is
// erased with its last use (and dropped from its handle).

// CHECK-LABEL: func.func @shared_dequant
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x1x16xf32>, %[[Z:[a-z0-9_]+]]: tensor<4x3x1x16xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>, %[[Y:[a-z0-9_]+]]: tensor<3x8xf32>, %[[ACC:[a-z0-9_]+]]: tensor<4x16xf32>)
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<3x8xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         %[[PX:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<3x8xf32>, tensor<4x3x8x16xi8>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK:         %[[GX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[PX]] : tensor<4x3x1x16xf32>, tensor<4x3x1x16xf32>, tensor<3xf32>, tensor<4x3x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         %[[YS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[Y]] : tensor<3x8xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         %[[PY:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[Y]], %[[W]] : tensor<3x8xf32>, tensor<4x3x8x16xi8>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK:         %[[GY:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[YS]], %[[PY]] : tensor<4x3x1x16xf32>, tensor<4x3x1x16xf32>, tensor<3xf32>, tensor<4x3x16xf32>) outs(%[[ACC]] : tensor<4x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         return %[[GX]], %[[GY]] : tensor<4x16xf32>, tensor<4x16xf32>

// GONE-LABEL: func.func @shared_dequant
// GONE-NOT:     -> tensor<4x3x8x16xf32>
// GONE-NOT:     tensor<4x3x8x16xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @shared_dequant(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x1x16xf32>,
    %zero_points: tensor<4x3x1x16xf32>, %x: tensor<3x8xf32>, %y: tensor<3x8xf32>,
    %acc: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<4x3x8x16xi8>, tensor<4x3x1x16xf32>, tensor<4x3x1x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x3x8x16xf32>
  %first = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  %second = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%y, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %first, %second : tensor<4x16xf32>, tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    %n = transform.num_associations %groups : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{group_sums holds 2 : i64}}
    transform.debug.emit_param_as_remark %n, "group_sums holds" : !transform.param<i64>
    %d = transform.num_associations %dequant : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{dequant holds 0 : i64}}
    transform.debug.emit_param_as_remark %d, "dequant holds" : !transform.param<i64>
    transform.yield
  }
}

// -----

// The offset form tofp(w) * s - o (llama.cpp's q4_K and q5_K, packed: the
// offset dmin·m is no multiple of the scale): the offset takes the
// zero-point's place in the group sums, outside the scale:
// out += s · p − o · xs.

// CHECK-LABEL: func.func @offset_form
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<4x3x8x16xi8>, %[[S:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[O:[a-z0-9_]+]]: tensor<4x3x16xf32>, %[[X:[a-z0-9_]+]]: tensor<3x8xf32>)
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<3x8xf32>) outs(%{{.+}} : tensor<3xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[W]] : tensor<3x8xf32>, tensor<4x3x8x16xi8>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S]], %[[O]], %[[XS]], %[[P]] : tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<3xf32>, tensor<4x3x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_O:[a-z0-9_]+]]: f32, %[[G_XS:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: f32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_OXS:.+]] = arith.mulf %[[G_O]], %[[G_XS]] : f32
// CHECK-NEXT:      %[[G_SP:.+]] = arith.mulf %[[G_S]], %[[G_P]] : f32
// CHECK-NEXT:      %[[G_SUB:.+]] = arith.subf %[[G_SP]], %[[G_OXS]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_SUB]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NEXT:    } -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[G]] : tensor<4x16xf32>

// GONE-LABEL: func.func @offset_form
// GONE-NOT:     tensor<4x3x8x16xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#per_group = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#activation = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#weights = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#result = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
func.func @offset_form(%weights: tensor<4x3x8x16xi8>, %scales: tensor<4x3x16xf32>,
    %offsets: tensor<4x3x16xf32>, %x: tensor<3x8xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<4x16xf32>
  %dequant_init = tensor.empty() : tensor<4x3x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %offsets : tensor<4x3x8x16xi8>, tensor<4x3x16xf32>, tensor<4x3x16xf32>)
      outs(%dequant_init : tensor<4x3x8x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %offset: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    %shifted = arith.subf %scaled, %offset : f32
    linalg.yield %shifted : f32
  } -> tensor<4x3x8x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %dequant : tensor<3x8xf32>, tensor<4x3x8x16xf32>)
      outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  return %matvec : tensor<4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups = transform.qforge.factor_packed_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}
