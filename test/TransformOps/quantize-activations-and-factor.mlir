// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-local-scope | FileCheck %s
// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s --check-prefix=GONE

// Tests for transform.qforge.quantize_activations_and_factor (the integer
// variant of factor_dequant_contraction) on kernels of the seed form
// (examples/gen_decode_kernel.py). The first RUN line checks the generated
// generics op by op (maps printed inline); the second checks, over each whole
// function, that the weights are never converted to float any more: they
// only meet the int8 activation in i32 products. The scripts tag the result
// handles with transform.annotate so that the checks also show which generic
// each handle holds.
//
// What the maps must say, from the op's definition (k = 64 j + 4 l + q for
// 16 lanes of 4 bytes):
//   amax[0, 0, g]        = max_k |x[0, 0, g, k]|
//   xq[0, 0, g, k]       = clamp(roundeven(x * (127 / amax)), -127, 127)
//   xs[0, 0, g, l]       = sum_{j, q} xq[0, 0, g, j, l, q]
//   p[0, 0, n, g, l]     = sum_{j, q} extui(w[n, g, j, l, q]) * extsi(xq[0, 0, g, j, l, q])
//   acc[0, 0, n, l]      = sum_g s[n, g] * (amax[0, 0, g] / 127) * (p - z[n, g] * xs[0, 0, g, l])
//   out[0, 0, n]        += sum_l acc[0, 0, n, l]
// The weights and the quantized activation must be split by the same
// reassociation into the same (j, l, q) sizes, and read by the partial sums
// through the same (g, j, l, q) dims, or a weight byte would meet another
// element's activation byte.
//
// Loop order of the generated generics: the loops a strategy tiles first --
// n (rows), g (groups), j (steps) -- then the batch dims b0, b1 (the
// activation's leading 1x1), then the lanes l and bytes q (k for the
// activation quantization), so that the maps' d0, d1, .. are, in order:
//   amax             (g, b0, b1, k)            k reduced
//   xq               (g, b0, b1, k)
//   activation_sums  (g, j, b0, b1, l, q)      j, q reduced
//   partial_sums     (n, g, j, b0, b1, l, q)   j, q reduced
//   group_sums       (n, g, b0, b1, l)         g reduced
//   row_sums         (n, b0, b1, l)            l reduced

// The seed form (gen_decode_kernel.py 8 4 128): K = 128 splits as j = 2
// steps of l = 16 lanes x q = 4 bytes (the default lanes).

// CHECK-LABEL: func.func @seed_form
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x128xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x128xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[WE:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3, 4]] output_shape [8, 4, 2, 16, 4] : tensor<8x4x128xi8> into tensor<8x4x2x16x4xi8>
//
// amax[0, 0, g] = max_k |x[0, 0, g, k]|, from 0, as the f32 bits: the
// unsigned max of the sign-cleared bit patterns (a NaN's exceed
// infinity's); loops (d0, .., d3) = (g, b0, b1, k).
// CHECK:         %[[MAX_C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[MAX_INIT:.+]] = linalg.fill ins(%[[MAX_C0]] : i32) outs(%{{.+}} : tensor<1x1x4xi32>) -> tensor<1x1x4xi32>
// CHECK-NEXT:    %[[AMAX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<1x1x4x128xf32>) outs(%[[MAX_INIT]] : tensor<1x1x4xi32>)
// CHECK-SAME:      attrs = {amax}
// CHECK-NEXT:    ^bb0(%[[M_X:[a-z0-9_]+]]: f32, %[[M_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[M_BITS:.+]] = arith.bitcast %[[M_X]] : f32 to i32
// CHECK-NEXT:      %[[M_MASK:.+]] = arith.constant 2147483647 : i32
// CHECK-NEXT:      %[[M_ABS:.+]] = arith.andi %[[M_BITS]], %[[M_MASK]] : i32
// CHECK-NEXT:      %[[M_MAX:.+]] = arith.maxui %[[M_ABS]], %[[M_OUT]] : i32
// CHECK-NEXT:      linalg.yield %[[M_MAX]] : i32
// CHECK-NEXT:    } -> tensor<1x1x4xi32>
//
// xq[0, 0, g, k] = fptosi(clamp(roundeven(x * select(amax > 0, 127 / amax, 0)), -127, 127)),
// amax bitcast back to f32;
// loops (d0, .., d3) = (g, b0, b1, k).
// CHECK-NEXT:    %[[XQ_INIT:.+]] = tensor.empty() : tensor<1x1x4x128xi8>
// CHECK-NEXT:    %[[XQ:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0, d3)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[X]], %[[AMAX]] : tensor<1x1x4x128xf32>, tensor<1x1x4xi32>) outs(%[[XQ_INIT]] : tensor<1x1x4x128xi8>)
// CHECK-SAME:      attrs = {xq}
// CHECK-NEXT:    ^bb0(%[[Q_X:[a-z0-9_]+]]: f32, %[[Q_MAX_BITS:[a-z0-9_]+]]: i32, %[[Q_OUT:[a-z0-9_]+]]: i8):
// CHECK-NEXT:      %[[Q_ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[Q_LIMIT:.+]] = arith.constant 1.270000e+02 : f32
// CHECK-NEXT:      %[[Q_MAX:.+]] = arith.bitcast %[[Q_MAX_BITS]] : i32 to f32
// CHECK-NEXT:      %[[Q_POS:.+]] = arith.cmpf ogt, %[[Q_MAX]], %[[Q_ZERO]] : f32
// CHECK-NEXT:      %[[Q_DIV:.+]] = arith.divf %[[Q_LIMIT]], %[[Q_MAX]] : f32
// CHECK-NEXT:      %[[Q_INV:.+]] = arith.select %[[Q_POS]], %[[Q_DIV]], %[[Q_ZERO]] : f32
// CHECK-NEXT:      %[[Q_SCALED:.+]] = arith.mulf %[[Q_X]], %[[Q_INV]] : f32
// CHECK-NEXT:      %[[Q_ROUND:.+]] = math.roundeven %[[Q_SCALED]] : f32
// CHECK-NEXT:      %[[Q_MIN:.+]] = arith.minimumf %[[Q_ROUND]], %[[Q_LIMIT]] : f32
// CHECK-NEXT:      %[[Q_NEG:.+]] = arith.negf %[[Q_LIMIT]] : f32
// CHECK-NEXT:      %[[Q_CLAMP:.+]] = arith.maximumf %[[Q_MIN]], %[[Q_NEG]] : f32
// CHECK-NEXT:      %[[Q_I8:.+]] = arith.fptosi %[[Q_CLAMP]] : f32 to i8
// CHECK-NEXT:      linalg.yield %[[Q_I8]] : i8
// CHECK-NEXT:    } -> tensor<1x1x4x128xi8>
//
// The quantized activation is split like the weights: k = (j, l, q) = (2, 16, 4).
// CHECK-NEXT:    %[[XE:.+]] = tensor.expand_shape %[[XQ]] {{\[\[}}0], [1], [2], [3, 4, 5]] output_shape [1, 1, 4, 2, 16, 4] : tensor<1x1x4x128xi8> into tensor<1x1x4x2x16x4xi8>
//
// activation_sums: xs[0, 0, g, l] = sum_{j, q} sitofp(xq[0, 0, g, j, l, q]), in f32;
// loops (d0, .., d5) = (g, j, b0, b1, l, q).
// CHECK:         %[[XS_C0:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[XS_INIT:.+]] = linalg.fill ins(%[[XS_C0]] : f32) outs(%{{.+}} : tensor<1x1x4x16xf32>) -> tensor<1x1x4x16xf32>
// CHECK-NEXT:    %[[XS:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d0, d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XE]] : tensor<1x1x4x2x16x4xi8>) outs(%[[XS_INIT]] : tensor<1x1x4x16xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK-NEXT:    ^bb0(%[[XS_IN:[a-z0-9_]+]]: i8, %[[XS_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[XS_F:.+]] = arith.sitofp %[[XS_IN]] : i8 to f32
// CHECK-NEXT:      %[[XS_ADD:.+]] = arith.addf %[[XS_F]], %[[XS_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[XS_ADD]] : f32
// CHECK-NEXT:    } -> tensor<1x1x4x16xf32>
//
// partial_sums: p[0, 0, n, g, l] = sum_{j, q} extui(w[n, g, j, l, q]) * extsi(xq[0, 0, g, j, l, q]),
// in i32 from an i32 zero (the order of vpdpbusd's byte operands);
// loops (d0, .., d6) = (n, g, j, b0, b1, l, q).
// CHECK:         %[[P_C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[P_EMPTY:.+]] = tensor.empty() : tensor<1x1x8x4x16xi32>
// CHECK-NEXT:    %[[P_INIT:.+]] = linalg.fill ins(%[[P_C0]] : i32) outs(%[[P_EMPTY]] : tensor<1x1x8x4x16xi32>) -> tensor<1x1x8x4x16xi32>
// CHECK-NEXT:    %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d0, d1, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XE]], %[[WE]] : tensor<1x1x4x2x16x4xi8>, tensor<8x4x2x16x4xi8>) outs(%[[P_INIT]] : tensor<1x1x8x4x16xi32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[P_WI:.+]] = arith.extui %[[P_W]] : i8 to i32
// CHECK-NEXT:      %[[P_XI:.+]] = arith.extsi %[[P_X]] : i8 to i32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.muli %[[P_WI]], %[[P_XI]] : i32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addi %[[P_MUL]], %[[P_OUT]] : i32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : i32
// CHECK-NEXT:    } -> tensor<1x1x8x4x16xi32>
//
// group_sums: acc[0, 0, n, l] = sum_g s[n, g] * (amax[0, 0, g] * (1 / 127)) * (sitofp(p) - z[n, g] * xs[0, 0, g, l])
// (amax bitcast back to f32);
// loops (d0, .., d4) = (n, g, b0, b1, l).
// CHECK:         %[[G_C0:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[G_INIT:.+]] = linalg.fill ins(%[[G_C0]] : f32) outs(%{{.+}} : tensor<1x1x8x16xf32>) -> tensor<1x1x8x16xf32>
// CHECK-NEXT:    %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]], %[[AMAX]] : tensor<8x4x1xf32>, tensor<8x4x1xf32>, tensor<1x1x4x16xf32>, tensor<1x1x8x4x16xi32>, tensor<1x1x4xi32>) outs(%[[G_INIT]] : tensor<1x1x8x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_Z:[a-z0-9_]+]]: f32, %[[G_XS:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: i32, %[[G_MAX_BITS:[a-z0-9_]+]]: i32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_INV:.+]] = arith.constant 0.00787401571 : f32
// CHECK-NEXT:      %[[G_MAX:.+]] = arith.bitcast %[[G_MAX_BITS]] : i32 to f32
// CHECK-NEXT:      %[[G_XSCALE:.+]] = arith.mulf %[[G_MAX]], %[[G_INV]] : f32
// CHECK-NEXT:      %[[G_SCALE:.+]] = arith.mulf %[[G_S]], %[[G_XSCALE]] : f32
// CHECK-NEXT:      %[[G_PF:.+]] = arith.sitofp %[[G_P]] : i32 to f32
// CHECK-NEXT:      %[[G_ZXS:.+]] = arith.mulf %[[G_Z]], %[[G_XS]] : f32
// CHECK-NEXT:      %[[G_SUB:.+]] = arith.subf %[[G_PF]], %[[G_ZXS]] : f32
// CHECK-NEXT:      %[[G_MUL:.+]] = arith.mulf %[[G_SCALE]], %[[G_SUB]] : f32
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
// GONE-NOT:     arith.uitofp
// GONE-NOT:     -> tensor<8x4x128xf32>
// GONE-NOT:     tensor<8x4x128xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @seed_form(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // activation_quantization holds two generics, amax first, then xq.
    %n = transform.num_associations %quantization : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_quantization holds 2 : i64}}
    transform.debug.emit_param_as_remark %n, "activation_quantization holds" : !transform.param<i64>
    %amax, %xq = transform.split_handle %quantization
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %amax "amax" : !transform.any_op
    transform.annotate %xq "xq" : !transform.any_op
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Symmetric quantization (gen_decode_kernel.py 8 4 128 --no-zero-point): no
// activation sums (the handle is empty), and the group sums are
// s * (amax / 127) * sitofp(p). The amax generic is still read there.

// CHECK-LABEL: func.func @symmetric
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x128xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x128xf32>)
// CHECK:         %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
// CHECK:         %[[WE:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3, 4]] output_shape [8, 4, 2, 16, 4] : tensor<8x4x128xi8> into tensor<8x4x2x16x4xi8>
// CHECK:         %[[AMAX:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<1x1x4x128xf32>) outs(%{{.+}} : tensor<1x1x4xi32>)
// CHECK-SAME:      attrs = {amax}
// CHECK:         %[[XQ:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[AMAX]] : tensor<1x1x4x128xf32>, tensor<1x1x4xi32>) outs(%{{.+}} : tensor<1x1x4x128xi8>)
// CHECK-SAME:      attrs = {xq}
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[XQ]] {{\[\[}}0], [1], [2], [3, 4, 5]] output_shape [1, 1, 4, 2, 16, 4] : tensor<1x1x4x128xi8> into tensor<1x1x4x2x16x4xi8>
// CHECK-NOT:     tensor<1x1x4x16xf32>
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d0, d1, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XE]], %[[WE]] : tensor<1x1x4x2x16x4xi8>, tensor<8x4x2x16x4xi8>) outs(%{{.+}} : tensor<1x1x8x4x16xi32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[P_WI:.+]] = arith.extui %[[P_W]] : i8 to i32
// CHECK-NEXT:      %[[P_XI:.+]] = arith.extsi %[[P_X]] : i8 to i32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.muli %[[P_WI]], %[[P_XI]] : i32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addi %[[P_MUL]], %[[P_OUT]] : i32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : i32
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[P]], %[[AMAX]] : tensor<8x4x1xf32>, tensor<1x1x8x4x16xi32>, tensor<1x1x4xi32>) outs(%{{.+}} : tensor<1x1x8x16xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: i32, %[[G_MAX_BITS:[a-z0-9_]+]]: i32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_INV:.+]] = arith.constant 0.00787401571 : f32
// CHECK-NEXT:      %[[G_MAX:.+]] = arith.bitcast %[[G_MAX_BITS]] : i32 to f32
// CHECK-NEXT:      %[[G_XSCALE:.+]] = arith.mulf %[[G_MAX]], %[[G_INV]] : f32
// CHECK-NEXT:      %[[G_SCALE:.+]] = arith.mulf %[[G_S]], %[[G_XSCALE]] : f32
// CHECK-NEXT:      %[[G_PF:.+]] = arith.sitofp %[[G_P]] : i32 to f32
// CHECK-NEXT:      %[[G_MUL:.+]] = arith.mulf %[[G_SCALE]], %[[G_PF]] : f32
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
// GONE-NOT:     arith.uitofp
// GONE-NOT:     -> tensor<8x4x128xf32>
// GONE-NOT:     tensor<8x4x128xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @symmetric(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x128xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %n = transform.num_associations %sums : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_sums holds 0 : i64}}
    transform.debug.emit_param_as_remark %n, "activation_sums holds" : !transform.param<i64>
    %m = transform.num_associations %quantization : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_quantization holds 2 : i64}}
    transform.debug.emit_param_as_remark %m, "activation_quantization holds" : !transform.param<i64>
    %amax, %xq = transform.split_handle %quantization
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %amax "amax" : !transform.any_op
    transform.annotate %xq "xq" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// lanes = 8 (AVX2-width / vpdpbusd.256): q stays 4 bytes per lane, so
// K = 128 splits as j = 4 steps of l = 8 lanes x q = 4 bytes. The dequant
// body is the one fold_int_to_float_casts leaves (a bare uitofp of the i8),
// as in transforms/decode-int8.mlir.

// CHECK-LABEL: func.func @lanes_8
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: tensor<8x4x128xi8>, %[[S:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[Z:[a-z0-9_]+]]: tensor<8x4x1xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x128xf32>)
// CHECK:         %[[WE:.+]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2, 3, 4]] output_shape [8, 4, 4, 8, 4] : tensor<8x4x128xi8> into tensor<8x4x4x8x4xi8>
// CHECK:         %[[AMAX:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<1x1x4x128xf32>) outs(%{{.+}} : tensor<1x1x4xi32>)
// CHECK-SAME:      attrs = {amax}
// CHECK:         %[[XQ:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[AMAX]] : tensor<1x1x4x128xf32>, tensor<1x1x4xi32>) outs(%{{.+}} : tensor<1x1x4x128xi8>)
// CHECK-SAME:      attrs = {xq}
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[XQ]] {{\[\[}}0], [1], [2], [3, 4, 5]] output_shape [1, 1, 4, 4, 8, 4] : tensor<1x1x4x128xi8> into tensor<1x1x4x4x8x4xi8>
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d0, d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d0, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XE]] : tensor<1x1x4x4x8x4xi8>) outs(%{{.+}} : tensor<1x1x4x8xf32>)
// CHECK-SAME:      attrs = {activation_sums}
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d0, d1, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XE]], %[[WE]] : tensor<1x1x4x4x8x4xi8>, tensor<8x4x4x8x4xi8>) outs(%{{.+}} : tensor<1x1x8x4x8xi32>)
// CHECK-SAME:      attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[P_WI:.+]] = arith.extui %[[P_W]] : i8 to i32
// CHECK-NEXT:      %[[P_XI:.+]] = arith.extsi %[[P_X]] : i8 to i32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.muli %[[P_WI]], %[[P_XI]] : i32
// CHECK:         %[[G:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[Z]], %[[XS]], %[[P]], %[[AMAX]] : tensor<8x4x1xf32>, tensor<8x4x1xf32>, tensor<1x1x4x8xf32>, tensor<1x1x8x4x8xi32>, tensor<1x1x4xi32>) outs(%{{.+}} : tensor<1x1x8x8xf32>)
// CHECK-SAME:      attrs = {group_sums}
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[G]] : tensor<1x1x8x8xf32>) outs(%{{.+}} : tensor<1x1x8xf32>)
// CHECK-SAME:      attrs = {row_sums}
// CHECK:         return %[[R]] : tensor<1x1x8xf32>

// GONE-LABEL: func.func @lanes_8
// GONE-NOT:     arith.uitofp
// GONE-NOT:     -> tensor<8x4x128xf32>
// GONE-NOT:     tensor<8x4x128xf32>)
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @lanes_8(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction {lanes = 8}
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %amax, %xq = transform.split_handle %quantization
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %amax "amax" : !transform.any_op
    transform.annotate %xq "xq" : !transform.any_op
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// sitofp(extui(w)) reads the byte as unsigned just like uitofp: accepted, and
// the partial sums zero-extend the weight byte (a sign extension would turn
// w = 255 into -1).

// CHECK-LABEL: func.func @sitofp_of_extui
// CHECK:         linalg.generic {{.+}} attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[P_WI:.+]] = arith.extui %[[P_W]] : i8 to i32
// CHECK-NEXT:      %[[P_XI:.+]] = arith.extsi %[[P_X]] : i8 to i32
// CHECK-NEXT:      arith.muli %[[P_WI]], %[[P_XI]] : i32
// CHECK:         return

// GONE-LABEL: func.func @sitofp_of_extui
// GONE-NOT:     arith.sitofp %{{.+}} : i32 to f32
// GONE:         attrs = {group_sums}
// GONE:         arith.sitofp %{{.+}} : i32 to f32
// GONE-NOT:     arith.sitofp %{{.+}} : i32 to f32
// GONE:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @sitofp_of_extui(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x128xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %scaled = arith.mulf %scale, %wf : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Signed symmetric weights (sitofp of i8: GGUF's q8_0, y = d * q): vpdpbusd
// reads its weight operand as unsigned, so each byte's sign bit is flipped
// (xor 0x80: q + 128) and the group sums take 128 * xs back, xs the sum of
// the quantized activation's bytes per lane -- the activation sums a
// zero-point would need, here for the offset alone.

// CHECK-LABEL: func.func @signed_symmetric
// CHECK:         %[[XS:.+]] = linalg.generic {{.*}} attrs = {activation_sums}
// CHECK:         linalg.generic {{.*}} attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[SIGN:.+]] = arith.constant -128 : i8
// CHECK-NEXT:      %[[FLIPPED:.+]] = arith.xori %[[P_W]], %[[SIGN]] : i8
// CHECK-NEXT:      %[[P_WI:.+]] = arith.extui %[[FLIPPED]] : i8 to i32
// CHECK-NEXT:      %[[P_XI:.+]] = arith.extsi %[[P_X]] : i8 to i32
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[XS]], %{{.+}}, %{{.+}} : tensor<8x4x1xf32>, tensor<1x1x4x16xf32>, tensor<1x1x8x4x16xi32>, tensor<1x1x4xi32>) {{.*}} attrs = {group_sums}
// CHECK:           %[[OFFSET:.+]] = arith.constant 1.280000e+02 : f32
// CHECK-NEXT:      %[[TAKEN:.+]] = arith.mulf %[[OFFSET]], %{{.+}} : f32
// CHECK-NEXT:      arith.subf %{{.+}}, %[[TAKEN]] : f32

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @signed_symmetric(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x128xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.sitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %n = transform.num_associations %sums : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{activation_sums holds 1 : i64}}
    transform.debug.emit_param_as_remark %n, "activation_sums holds" : !transform.param<i64>
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// magnitude_times_sign = %p holding 1 (the strategy table's rows for AVX2
// without VNNI): the partial sums take the weights signed -- these unsigned
// ones with their sign bit flipped (xor 0x80, w - 128) -- times the
// quantized activation clamped again to at least -127 (a no-op on xq, whose
// bound the dot-product patterns read off the op), both sign-extended; the
// group sums take the 128 back with the zero-point: p - (z - 128) · xs.

// CHECK-LABEL: func.func @magnitude_times_sign
// CHECK:         linalg.generic {{.*}}attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[P_FLIP:.+]] = arith.constant -128 : i8
// CHECK-NEXT:      %[[P_SW:.+]] = arith.xori %[[P_W]], %[[P_FLIP]] : i8
// CHECK-NEXT:      %[[P_LIMIT:.+]] = arith.constant -127 : i8
// CHECK-NEXT:      %[[P_C:.+]] = arith.maxsi %[[P_X]], %[[P_LIMIT]] : i8
// CHECK-NEXT:      %[[P_WE:.+]] = arith.extsi %[[P_SW]] : i8 to i32
// CHECK-NEXT:      %[[P_CE:.+]] = arith.extsi %[[P_C]] : i8 to i32
// CHECK-NEXT:      %[[P_MUL:.+]] = arith.muli %[[P_WE]], %[[P_CE]] : i32
// CHECK-NEXT:      %[[P_ADD:.+]] = arith.addi %[[P_MUL]], %[[P_OUT]] : i32
// CHECK-NEXT:      linalg.yield %[[P_ADD]] : i32
// CHECK:         linalg.generic {{.*}}attrs = {group_sums}
// CHECK:           %[[G_OFFSET:.+]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT:      %[[G_Z:.+]] = arith.addf %{{.+}}, %[[G_OFFSET]] : f32
// CHECK-NEXT:      %{{.+}} = arith.mulf %[[G_Z]], %{{.+}} : f32

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @magnitude_times_sign(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %zero_points: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x4x128xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction magnitude_times_sign = %one {lanes = 8}
      : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %amax, %xq = transform.split_handle %quantization
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %amax "amax" : !transform.any_op
    transform.annotate %xq "xq" : !transform.any_op
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// Signed symmetric weights with magnitude_times_sign: summed as they are
// (no xor), times the clamped activation; no offset to take back, and
// without a zero-point no activation sums either.

// CHECK-LABEL: func.func @signed_magnitude_times_sign
// CHECK:         linalg.generic {{.*}}attrs = {partial_sums}
// CHECK-NEXT:    ^bb0(%[[S_X:[a-z0-9_]+]]: i8, %[[S_W:[a-z0-9_]+]]: i8, %[[S_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[S_LIMIT:.+]] = arith.constant -127 : i8
// CHECK-NEXT:      %[[S_C:.+]] = arith.maxsi %[[S_X]], %[[S_LIMIT]] : i8
// CHECK-NEXT:      %[[S_WE:.+]] = arith.extsi %[[S_W]] : i8 to i32
// CHECK-NEXT:      %[[S_CE:.+]] = arith.extsi %[[S_C]] : i8 to i32
// CHECK-NEXT:      %[[S_MUL:.+]] = arith.muli %[[S_WE]], %[[S_CE]] : i32
// CHECK-NOT:     activation_sums
// The group sums read the scale, p and amax: no activation sums.
// CHECK:         linalg.generic {{.*}}ins(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<8x4x1xf32>, tensor<1x1x8x4x8xi32>, tensor<1x1x4xi32>) {{.*}}attrs = {group_sums}
// CHECK-NOT:       arith.constant {{.*}}e+02 : f32
// CHECK:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @signed_magnitude_times_sign(%weights: tensor<8x4x128xi8>,
    %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x128xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x128xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x128xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.sitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x128xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x128xf32>, tensor<8x4x128xf32>)
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
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %quantization, %sums, %partials, %groups, %rows = transform.qforge.quantize_activations_and_factor
        %dequant, %contraction magnitude_times_sign = %one {lanes = 8}
      : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}

