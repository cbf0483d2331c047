// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-local-scope | FileCheck %s
// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s --check-prefix=GONE

// Tests for transform.qforge.factor_dequant_contraction on kernels of the
// seed form (examples/gen_decode_kernel.py). The first RUN line checks the
// factored form op by op (maps printed inline); the second checks, over each
// whole function, that nothing computes or reads the dequantized f32 weights
// any more (the dequant's now-dead tensor.empty may remain). The scripts tag
// the result handles with transform.annotate so that the checks also show
// which generic each handle holds.
//
// Loop order of the factored generics: the loops a strategy tiles first --
// n (rows), g (groups), j (chunks) -- then the batch dims b0, b1 (the
// activation's leading 1x1), then the lanes l, so that the maps' d0, d1, ..
// are, in order:
//   activation_sums  (g, j, b0, b1, l)      j reduced
//   partial_sums     (n, g, j, b0, b1, l)   j reduced
//   group_sums       (n, g, b0, b1, l)      g reduced
//   row_sums         (n, b0, b1, l)         l reduced

// The seed form (gen_decode_kernel.py 8 4 32): K = 32 splits as j = 2 chunks
// of l = 16 lanes (the default).

// CHECK-LABEL: func.func @seed_form
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x32xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x32xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[WE:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3]] output_shape [8, 4, 2, 16] : tensor<8x4x32xi8> into tensor<8x4x2x16xi8>
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 4, 2, 16] : tensor<1x1x4x32xf32> into tensor<1x1x4x2x16xf32>
//
// activation_sums: xs[0, 0, g, l] = sum_j x[0, 0, g, j, l];
// loops (d0, .., d4) = (g, j, b0, b1, l).
// CHECK:         %[[C0:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[XS_INIT:.+]] = linalg.fill ins(%[[C0]] : f32) outs(%{{.+}} : tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
// CHECK-NEXT:    %[[XS:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]] : tensor<1x1x4x2x16xf32>) outs(%[[XS_INIT]] : tensor<1x1x4x16xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK-NEXT:    ^bb0(%[[XS_IN:[a-z0-9_]+]]: f32, %[[XS_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[XS_ADD:.+]] = arith.addf %[[XS_IN]], %[[XS_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[XS_ADD]] : f32
// CHECK-NEXT:    } -> tensor<1x1x4x16xf32>
//
// partial_sums: p[0, 0, n, g, l] = sum_j x[0, 0, g, j, l] * uitofp(w[n, g, j, l]),
// the i8 converted directly (no extui); loops (d0, .., d5) = (n, g, j, b0, b1, l).
// CHECK:         %[[C1:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[P_INIT:.+]] = linalg.fill ins(%[[C1]] : f32) outs(%{{.+}} : tensor<1x1x8x4x16xf32>) -> tensor<1x1x8x4x16xf32>
// CHECK-NEXT:    %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d0, d1, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]], %[[WE]] : tensor<1x1x4x2x16xf32>, tensor<8x4x2x16xi8>) outs(%[[P_INIT]] : tensor<1x1x8x4x16xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.uitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addf %[[P_MUL]], %[[P_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : f32
// CHECK-NEXT:    } -> tensor<1x1x8x4x16xf32>
//
// group_sums: acc[0, 0, n, l] = sum_g s[n, g] * (p[0, 0, n, g, l] - z[n, g] * xs[0, 0, g, l]),
// scales and zero-points still read through (n, g, 0); loops (d0, .., d4) =
// (n, g, b0, b1, l).
// CHECK:         %[[C2:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[G_INIT:.+]] = linalg.fill ins(%[[C2]] : f32) outs(%{{.+}} : tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
// CHECK-NEXT:    %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]] : tensor<8x4x1xf32>, tensor<8x4x1xf32>, tensor<1x1x4x16xf32>, tensor<1x1x8x4x16xf32>) outs(%[[G_INIT]] : tensor<1x1x8x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_Z:[a-z0-9_]+]]: f32, %[[G_XS:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: f32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_ZXS:.+]] = arith.mulf %[[G_Z]], %[[G_XS]] : f32
// CHECK-NEXT:      %[[G_SUB:.+]] = arith.subf %[[G_P]], %[[G_ZXS]] : f32
// CHECK-NEXT:      %[[G_MUL:.+]] = arith.mulf %[[G_S]], %[[G_SUB]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_MUL]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NEXT:    } -> tensor<1x1x8x16xf32>
//
// row_sums: out[0, 0, n] += sum_l acc[0, 0, n, l], into the original init;
// loops (d0, .., d3) = (n, b0, b1, l).
// CHECK-NEXT:    %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[G]] : tensor<1x1x8x16xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-SAME:      attrs = {row_sums}
// CHECK-NEXT:    ^bb0(%[[R_IN:[a-z0-9_]+]]: f32, %[[R_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[R_ADD:.+]] = arith.addf %[[R_IN]], %[[R_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[R_ADD]] : f32
// CHECK-NEXT:    } -> tensor<1x1x8xf32>
// CHECK-NEXT:    return %[[R]] : tensor<1x1x8xf32>

// GONE-LABEL: func.func @seed_form
// GONE-NOT:     arith.extui
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE-NOT:     tensor<8x4x32xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @seed_form(%weights: tensor<8x4x32xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Symmetric quantization (gen_decode_kernel.py 8 4 32 --no-zero-point): no
// activation sums (the handle is empty), and the group sums are s * p.

// CHECK-LABEL: func.func @symmetric
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x32xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x32xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[WE:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3]] output_shape [8, 4, 2, 16] : tensor<8x4x32xi8> into tensor<8x4x2x16xi8>
// CHECK-NEXT:    %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 4, 2, 16] : tensor<1x1x4x32xf32> into tensor<1x1x4x2x16xf32>
// CHECK-NOT:     tensor<1x1x4x16xf32>
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d0, d1, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]], %[[WE]] : tensor<1x1x4x2x16xf32>, tensor<8x4x2x16xi8>) outs(%{{.+}} : tensor<1x1x8x4x16xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.uitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addf %[[P_MUL]], %[[P_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : f32
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[P]] : tensor<8x4x1xf32>, tensor<1x1x8x4x16xf32>) outs(%{{.+}} : tensor<1x1x8x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: f32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_MUL:.+]] = arith.mulf %[[G_S]], %[[G_P]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_MUL]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NEXT:    } -> tensor<1x1x8x16xf32>
// CHECK-NEXT:    %[[R:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[G]] : tensor<1x1x8x16xf32>) outs(%[[ACC]] : tensor<1x1x8xf32>)
// CHECK-SAME:      attrs = {row_sums}
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

// GONE-LABEL: func.func @symmetric
// GONE-NOT:     arith.subf
// GONE-NOT:     arith.extui
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE-NOT:     tensor<8x4x32xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @symmetric(%weights: tensor<8x4x32xi8>,
    %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %n = transform.num_associations %sums : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_sums holds 0 : i64}}
    transform.debug.emit_param_as_remark %n, "activation_sums holds" : !transform.param<i64>
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Signed weights (gen_decode_kernel.py 8 4 32 --signed): extsi + sitofp
// becomes sitofp of the i8 in the partial sums; the rest is as for the seed.

// CHECK-LABEL: func.func @signed_weights
// CHECK:         %[[WE:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] output_shape [8, 4, 2, 16] : tensor<8x4x32xi8> into tensor<8x4x2x16xi8>
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[WE]] : tensor<1x1x4x2x16xf32>, tensor<8x4x2x16xi8>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: f32, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[P_WF:.+]] = arith.sitofp %[[P_W]] : i8 to f32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.mulf %[[P_X]], %[[P_WF]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {group_sums}
// CHECK:           arith.subf
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {row_sums}

// GONE-LABEL: func.func @signed_weights
// GONE-NOT:     arith.extsi
// GONE-NOT:     arith.uitofp
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE-NOT:     tensor<8x4x32xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @signed_weights(%weights: tensor<8x4x32xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extsi %w : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// i4 weights sign-extended twice (extsi i4 -> i8 -> i32, then sitofp), the
// scale first in the mulf, symmetric: the partial sums convert the i4
// directly.

// CHECK-LABEL: func.func @signed_i4_chain
// CHECK:         %[[WE:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] output_shape [8, 4, 2, 16] : tensor<8x4x32xi4> into tensor<8x4x2x16xi4>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %[[WE]] : tensor<1x1x4x2x16xf32>, tensor<8x4x2x16xi4>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%{{.+}}: f32, %[[P_W:[a-z0-9_]+]]: i4, %{{.+}}: f32):
// CHECK-NEXT:      arith.sitofp %[[P_W]] : i4 to f32

// GONE-LABEL: func.func @signed_i4_chain
// GONE-NOT:     arith.extsi
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE-NOT:     tensor<8x4x32xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @signed_i4_chain(%weights: tensor<8x4x32xi4>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi4>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i4, %scale: f32, %out: f32):
    %w8 = arith.extsi %w : i4 to i8
    %w32 = arith.extsi %w8 : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %scaled = arith.mulf %scale, %wf : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %n = transform.num_associations %sums : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_sums holds 0 : i64}}
    transform.debug.emit_param_as_remark %n, "activation_sums holds" : !transform.param<i64>
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// lanes = 8 (AVX2): K = 32 splits as j = 4 chunks of l = 8.

// CHECK-LABEL: func.func @lanes_8
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x32xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x32xf32>)
// CHECK:         %[[WE:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3]] output_shape [8, 4, 4, 8] : tensor<8x4x32xi8> into tensor<8x4x4x8xi8>
// CHECK-NEXT:    %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 1, 4, 4, 8] : tensor<1x1x4x32xf32> into tensor<1x1x4x4x8xf32>
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]] : tensor<1x1x4x4x8xf32>) outs(%{{.+}} : tensor<1x1x4x8xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]], %[[WE]] : tensor<1x1x4x4x8xf32>, tensor<8x4x4x8xi8>) outs(%{{.+}} : tensor<1x1x8x4x8xf32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]] : tensor<8x4x1xf32>, tensor<8x4x1xf32>, tensor<1x1x4x8xf32>, tensor<1x1x8x4x8xf32>) outs(%{{.+}} : tensor<1x1x8x8xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[G]] : tensor<1x1x8x8xf32>) outs(%{{.+}} : tensor<1x1x8xf32>)
// CHECK-SAME:      attrs = {row_sums}
// CHECK:         return %[[R]]

// GONE-LABEL: func.func @lanes_8
// GONE-NOT:     {{x16x(i8|f32)>}}
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE-NOT:     tensor<8x4x32xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @lanes_8(%weights: tensor<8x4x32xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction {lanes = 8}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Two pairs in two functions, one with a zero-point and one without: one
// call factors both; the handles hold the new generics pair by pair (the
// activation sums only for the pair with a zero-point).

// CHECK-LABEL: func.func @first_pair
// CHECK:         tensor.expand_shape
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {partial_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {row_sums}
// CHECK-LABEL: func.func @second_pair
// CHECK:         tensor.expand_shape
// CHECK-NOT:       attrs = {activation_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {partial_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {row_sums}

// GONE-LABEL: func.func @first_pair
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE:         return
// GONE-LABEL: func.func @second_pair
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @first_pair(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>, %zero_points: tensor<8x4x1xf32>, 
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x32xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

func.func @second_pair(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>, 
    %x: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %ns = transform.num_associations %sums : (!transform.any_op) -> !transform.param<i64>
    %nr = transform.num_associations %rows : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_sums holds 1 : i64}}
    transform.debug.emit_param_as_remark %ns, "activation_sums holds" : !transform.param<i64>
    // expected-remark @below {{row_sums holds 2 : i64}}
    transform.debug.emit_param_as_remark %nr, "row_sums holds" : !transform.param<i64>
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// One dequant feeding two contractions: the matcher returns it once per
// contraction ((d, c1), (d, c2)), and the factoring rewrites both pairs; the
// dequant is erased with its last use.

// CHECK-LABEL: func.func @shared_dequant
// CHECK-SAME:    (%{{.+}}, %{{.+}}, %[[X:[a-z0-9_]+]]: tensor<1x1x4x32xf32>, %[[Y:[a-z0-9_]+]]: tensor<1x1x4x32xf32>
// CHECK:         tensor.expand_shape %[[X]]
// CHECK:         %[[R1:.+]] = linalg.generic {{.*}} attrs = {row_sums}
// CHECK:         tensor.expand_shape %[[Y]]
// CHECK:         %[[R2:.+]] = linalg.generic {{.*}} attrs = {row_sums}
// CHECK:         return %[[R1]], %[[R2]]

// GONE-LABEL: func.func @shared_dequant
// GONE-NOT:     -> tensor<8x4x32xf32>
// GONE-NOT:     tensor<8x4x32xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @shared_dequant(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>, %y: tensor<1x1x4x32xf32>, %acc: tensor<1x1x8xf32>)
    -> (tensor<1x1x8xf32>, tensor<1x1x8xf32>) {
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  %matvec_x = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  %matvec_y = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%y, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec_x, %matvec_y : tensor<1x1x8xf32>, tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %nr = transform.num_associations %rows : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{row_sums holds 2 : i64}}
    transform.debug.emit_param_as_remark %nr, "row_sums holds" : !transform.param<i64>
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}
