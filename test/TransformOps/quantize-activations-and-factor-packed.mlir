// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-local-scope | FileCheck %s

// Tests for transform.qforge.quantize_activations_and_factor_packed on an
// activation that reaches the contraction through a linalg.pack (a batched
// kernel packed with its activation rows by 8 and k by 4, as the integer
// prefill strategies do): amax, xq and xs are computed on the unpacked
// activation -- a group's elements innermost and contiguous -- and their
// results are packed like the activation, with zero padding (13 rows pad to
// 16: a zero row quantizes to zero, its amax and xs are zero). The float
// activation's pack is gone. The second case has no such pack (a decode
// kernel, whose activation pack only splits k and folds into a reshape): the
// quantization then reads the activation as the contraction does. The third
// packs the activation with outer_dims_perm (groups before row blocks): the
// new packs keep that order, without the element dims for amax and xs. The
// fourth packs a dynamically shaped source (a cast of the argument): the
// quantization cannot be built on it, and stays on the packed activation.

// CHECK-LABEL: func.func @packed_activation_rows
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: tensor<1x13x3x16xf32>
// CHECK-NOT:     linalg.pack %[[X]]
// CHECK:         %[[AMAX:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[X]] : tensor<1x13x3x16xf32>)
// CHECK:           arith.bitcast {{.+}} : f32 to i32
// CHECK:           arith.andi
// CHECK:           arith.maxui
// CHECK:         } -> tensor<1x13x3xi32>
// CHECK:         %[[XQ:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[AMAX]] : tensor<1x13x3x16xf32>, tensor<1x13x3xi32>)
// CHECK:           math.roundeven
// CHECK:         } -> tensor<1x13x3x16xi8>
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XQ]] : tensor<1x13x3x16xi8>)
// CHECK:         } -> tensor<1x13x3xf32>
// CHECK:         %[[AMAX_PAD:.+]] = arith.constant 0 : i32
// CHECK:         %[[AMAX_PACKED:.+]] = linalg.pack %[[AMAX]] padding_value(%[[AMAX_PAD]] : i32) inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} {qforge.activation_pack = "amax"} : tensor<1x13x3xi32> -> tensor<1x2x3x8xi32>
// CHECK:         %[[XQ_PAD:.+]] = arith.constant 0 : i8
// CHECK:         %[[XQ_PACKED:.+]] = linalg.pack %[[XQ]] padding_value(%[[XQ_PAD]] : i8) inner_dims_pos = [1, 3] inner_tiles = [8, 4] into %{{.+}} {qforge.activation_pack = "xq"} : tensor<1x13x3x16xi8> -> tensor<1x2x3x4x8x4xi8>
// CHECK:         %[[XS_PAD:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[XS_PACKED:.+]] = linalg.pack %[[XS]] padding_value(%[[XS_PAD]] : f32) inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} {qforge.activation_pack = "xs"} : tensor<1x13x3xf32> -> tensor<1x2x3x8xf32>
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[XQ_PACKED]], %{{.+}} : tensor<1x2x3x4x8x4xi8>, tensor<2x3x4x16x4xi8>)
// CHECK:         } -> tensor<2x3x1x2x8x16xi32>
// The group sums scale s by 1 / 127 first, then by the token's amax: s / 127
// does not depend on the token, so a prefill computes it outside its token
// loop.
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.+}}, %{{.+}}, %[[XS_PACKED]], %[[P]], %[[AMAX_PACKED]] :
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32, %{{[a-z0-9_]+}}: f32, %{{[a-z0-9_]+}}: i32, %[[G_MAX_BITS:[a-z0-9_]+]]: i32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[G_INV:.+]] = arith.constant 0.00787401571 : f32
// CHECK-NEXT:      %[[G_MAX:.+]] = arith.bitcast %[[G_MAX_BITS]] : i32 to f32
// CHECK-NEXT:      %[[G_WSCALE:.+]] = arith.mulf %[[G_S]], %[[G_INV]] : f32
// CHECK-NEXT:      %{{.+}} = arith.mulf %[[G_WSCALE]], %[[G_MAX]] : f32
// CHECK-NOT:     ub.poison
// CHECK:         return
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @packed_activation_rows(%weights: tensor<20x3x16xi8>,
    %scales: tensor<20x3x1xf32>,
    %zero_points: tensor<20x3x1xf32>,
    %x: tensor<1x13x3x16xf32>) -> tensor<1x13x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x13x20xf32>
  %dequant_init = tensor.empty() : tensor<20x3x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x13x20xf32>) -> tensor<1x13x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<20x3x16xi8>, tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%dequant_init : tensor<20x3x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<20x3x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x13x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x13x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x13x20xf32>
  return %matvec : tensor<1x13x20xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 8, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @decode_activation_reshaped
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: tensor<1x1x3x16xf32>
// CHECK:         %[[XK:.+]] = tensor.expand_shape %[[X]]
// CHECK:         %[[AMAX:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[XK]] : tensor<1x1x3x4x4xf32>)
// CHECK:         } -> tensor<1x1x3xi32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[XK]], %[[AMAX]] : tensor<1x1x3x4x4xf32>, tensor<1x1x3xi32>)
// CHECK:         } -> tensor<1x1x3x4x4xi8>
// CHECK-NOT:     linalg.pack
// CHECK:         return
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @decode_activation_reshaped(%weights: tensor<20x3x16xi8>,
    %scales: tensor<20x3x1xf32>,
    %zero_points: tensor<20x3x1xf32>,
    %x: tensor<1x1x3x16xf32>) -> tensor<1x1x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x20xf32>
  %dequant_init = tensor.empty() : tensor<20x3x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x20xf32>) -> tensor<1x1x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<20x3x16xi8>, tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%dequant_init : tensor<20x3x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<20x3x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x1x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x20xf32>
  return %matvec : tensor<1x1x20xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The offset form w·s − o (q4_K's and q5_K's packed weights), moved
// through the same packs: the group sums subtract o · Σx in the
// activation's units, Σx = xs · amax/127 (xs a sum of int8), outside the
// weights' scale: out += s · amax/127 · p − o · (xs · amax/127). A decode's
// xs and amax are one scalar per group: o takes one vector multiply.
// CHECK-LABEL: func.func @decode_offset_form
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<2x3x1x16x1xf32>, tensor<2x3x1x16x1xf32>, tensor<1x1x3xf32>, tensor<2x3x1x1x16xi32>, tensor<1x1x3xi32>)
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_O:[a-z0-9_]+]]: f32, %[[G_XS:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: i32, %[[G_MAX_BITS:[a-z0-9_]+]]: i32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_INV:.+]] = arith.constant 0.00787401571 : f32
// CHECK-NEXT:      %[[G_MAX:.+]] = arith.bitcast %[[G_MAX_BITS]] : i32 to f32
// CHECK-NEXT:      %[[G_XSCALE:.+]] = arith.mulf %[[G_MAX]], %[[G_INV]] : f32
// CHECK-NEXT:      %[[G_SCALE:.+]] = arith.mulf %[[G_S]], %[[G_XSCALE]] : f32
// CHECK-NEXT:      %[[G_SUMS:.+]] = arith.mulf %[[G_XS]], %[[G_XSCALE]] : f32
// CHECK-NEXT:      %[[G_OFFSET:.+]] = arith.mulf %[[G_O]], %[[G_SUMS]] : f32
// CHECK-NEXT:      %[[G_PF:.+]] = arith.sitofp %[[G_P]] : i32 to f32
// CHECK-NEXT:      %[[G_SP:.+]] = arith.mulf %[[G_SCALE]], %[[G_PF]] : f32
// CHECK-NEXT:      %[[G_SUB:.+]] = arith.subf %[[G_SP]], %[[G_OFFSET]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_SUB]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NOT:     ub.poison
// CHECK:         return
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @decode_offset_form(%weights: tensor<20x3x16xi8>,
    %scales: tensor<20x3x1xf32>,
    %offsets: tensor<20x3x1xf32>,
    %x: tensor<1x1x3x16xf32>) -> tensor<1x1x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x20xf32>
  %dequant_init = tensor.empty() : tensor<20x3x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x20xf32>) -> tensor<1x1x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %offsets : tensor<20x3x16xi8>, tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%dequant_init : tensor<20x3x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %offset: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    %shifted = arith.subf %scaled, %offset : f32
    linalg.yield %shifted : f32
  } -> tensor<20x3x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x1x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x20xf32>
  return %matvec : tensor<1x1x20xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @outer_dims_perm
// CHECK-SAME:    %[[X:[a-z0-9_]+]]: tensor<1x13x3x16xf32>
// CHECK:         %[[AMAX:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<1x13x3x16xf32>)
// CHECK:         %[[XQ:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[X]], %[[AMAX]] : tensor<1x13x3x16xf32>, tensor<1x13x3xi32>)
// CHECK:         linalg.pack %[[AMAX]] padding_value(%{{.+}} : i32) outer_dims_perm = [0, 2, 1] inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} {qforge.activation_pack = "amax"} : tensor<1x13x3xi32> -> tensor<1x3x2x8xi32>
// CHECK:         linalg.pack %[[XQ]] padding_value(%{{.+}} : i8) outer_dims_perm = [0, 2, 1, 3] inner_dims_pos = [1, 3] inner_tiles = [8, 4] into %{{.+}} {qforge.activation_pack = "xq"} : tensor<1x13x3x16xi8> -> tensor<1x3x2x4x8x4xi8>
// CHECK-NOT:     linalg.pack %[[X]]
  func.func @outer_dims_perm(%arg0: tensor<20x3x16xi8>, %arg1: tensor<20x3x1xf32>, %arg2: tensor<20x3x1xf32>, %arg3: tensor<1x13x3x16xf32>) -> tensor<1x13x20xf32> {
    %c0_i8 = arith.constant 0 : i8
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x13x20xf32>
    %1 = tensor.empty() : tensor<1x3x2x4x8x4xf32>
    %pack = linalg.pack %arg3 padding_value(%cst : f32) outer_dims_perm = [0, 2, 1, 3] inner_dims_pos = [1, 3] inner_tiles = [8, 4] into %1 : tensor<1x13x3x16xf32> -> tensor<1x3x2x4x8x4xf32>
    %2 = tensor.empty() : tensor<2x3x4x16x4xf32>
    %3 = tensor.empty() : tensor<2x3x4x16x4xi8>
    %pack_0 = linalg.pack %arg0 padding_value(%c0_i8 : i8) inner_dims_pos = [0, 2] inner_tiles = [16, 4] into %3 : tensor<20x3x16xi8> -> tensor<2x3x4x16x4xi8>
    %4 = tensor.empty() : tensor<2x3x1x16x1xf32>
    %pack_1 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 2] inner_tiles = [16, 1] into %4 : tensor<20x3x1xf32> -> tensor<2x3x1x16x1xf32>
    %5 = tensor.empty() : tensor<2x3x1x16x1xf32>
    %pack_2 = linalg.pack %arg2 padding_value(%cst : f32) inner_dims_pos = [0, 2] inner_tiles = [16, 1] into %5 : tensor<20x3x1xf32> -> tensor<2x3x1x16x1xf32>
    %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%pack_0, %pack_1, %pack_2 : tensor<2x3x4x16x4xi8>, tensor<2x3x1x16x1xf32>, tensor<2x3x1x16x1xf32>) outs(%2 : tensor<2x3x4x16x4xf32>) {
    ^bb0(%in: i8, %in_3: f32, %in_4: f32, %out: f32):
      %10 = arith.extui %in : i8 to i32
      %11 = arith.uitofp %10 : i32 to f32
      %12 = arith.subf %11, %in_4 : f32
      %13 = arith.mulf %12, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x4x16x4xf32>
    %7 = tensor.empty() : tensor<1x2x2x8x16xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<1x2x2x8x16xf32>) -> tensor<1x2x2x8x16xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d3, d1, d4, d5, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d3, d4, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d5, d6)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel", "parallel", "reduction"]} ins(%pack, %6 : tensor<1x3x2x4x8x4xf32>, tensor<2x3x4x16x4xf32>) outs(%8 : tensor<1x2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %10 = arith.mulf %in, %in_3 : f32
      %11 = arith.addf %10, %out : f32
      linalg.yield %11 : f32
    } -> tensor<1x2x2x8x16xf32>
    %unpack = linalg.unpack %9 inner_dims_pos = [1, 2] inner_tiles = [8, 16] into %0 : tensor<1x2x2x8x16xf32> -> tensor<1x13x20xf32>
    return %unpack : tensor<1x13x20xf32>
  }

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @dynamic_source
// CHECK:         %[[PACKED:.+]] = linalg.pack %{{.+}} padding_value(%{{.+}} : f32) inner_dims_pos = [1, 3] inner_tiles = [8, 4] into %{{.+}} : tensor<1x?x3x16xf32> -> tensor<1x2x3x4x8x4xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[PACKED]] : tensor<1x2x3x4x8x4xf32>)
// CHECK-NOT:     qforge.activation_pack
// CHECK:         return
  func.func @dynamic_source(%arg0: tensor<20x3x16xi8>, %arg1: tensor<20x3x1xf32>, %arg2: tensor<20x3x1xf32>, %arg3s: tensor<1x13x3x16xf32>) -> tensor<1x13x20xf32> {
    %c0_i8 = arith.constant 0 : i8
    %arg3 = tensor.cast %arg3s : tensor<1x13x3x16xf32> to tensor<1x?x3x16xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x13x20xf32>
    %1 = tensor.empty() : tensor<1x2x3x4x8x4xf32>
    %pack = linalg.pack %arg3 padding_value(%cst : f32) inner_dims_pos = [1, 3] inner_tiles = [8, 4] into %1 : tensor<1x?x3x16xf32> -> tensor<1x2x3x4x8x4xf32>
    %2 = tensor.empty() : tensor<2x3x4x16x4xf32>
    %3 = tensor.empty() : tensor<2x3x4x16x4xi8>
    %pack_0 = linalg.pack %arg0 padding_value(%c0_i8 : i8) inner_dims_pos = [0, 2] inner_tiles = [16, 4] into %3 : tensor<20x3x16xi8> -> tensor<2x3x4x16x4xi8>
    %4 = tensor.empty() : tensor<2x3x1x16x1xf32>
    %pack_1 = linalg.pack %arg1 padding_value(%cst : f32) inner_dims_pos = [0, 2] inner_tiles = [16, 1] into %4 : tensor<20x3x1xf32> -> tensor<2x3x1x16x1xf32>
    %5 = tensor.empty() : tensor<2x3x1x16x1xf32>
    %pack_2 = linalg.pack %arg2 padding_value(%cst : f32) inner_dims_pos = [0, 2] inner_tiles = [16, 1] into %5 : tensor<20x3x1xf32> -> tensor<2x3x1x16x1xf32>
    %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, 0, d3, 0)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%pack_0, %pack_1, %pack_2 : tensor<2x3x4x16x4xi8>, tensor<2x3x1x16x1xf32>, tensor<2x3x1x16x1xf32>) outs(%2 : tensor<2x3x4x16x4xf32>) {
    ^bb0(%in: i8, %in_3: f32, %in_4: f32, %out: f32):
      %10 = arith.extui %in : i8 to i32
      %11 = arith.uitofp %10 : i32 to f32
      %12 = arith.subf %11, %in_4 : f32
      %13 = arith.mulf %12, %in_3 : f32
      linalg.yield %13 : f32
    } -> tensor<2x3x4x16x4xf32>
    %7 = tensor.empty() : tensor<1x2x2x8x16xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<1x2x2x8x16xf32>) -> tensor<1x2x2x8x16xf32>
    %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d3, d4, d5, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d2, d3, d4, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d5, d6)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel", "parallel", "reduction"]} ins(%pack, %6 : tensor<1x2x3x4x8x4xf32>, tensor<2x3x4x16x4xf32>) outs(%8 : tensor<1x2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %10 = arith.mulf %in, %in_3 : f32
      %11 = arith.addf %10, %out : f32
      linalg.yield %11 : f32
    } -> tensor<1x2x2x8x16xf32>
    %unpack = linalg.unpack %9 inner_dims_pos = [1, 2] inner_tiles = [8, 16] into %0 : tensor<1x2x2x8x16xf32> -> tensor<1x13x20xf32>
    return %unpack : tensor<1x13x20xf32>
  }

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// magnitude_times_sign = %p holding 1 on packed unsigned weights: the
// partial sums read them with their sign bit flipped (w - 128) times the
// quantized activation clamped to at least -127; the group sums take the
// zero-point with the -128 back, p - (z - 128) · xs.

// CHECK-LABEL: func.func @magnitude_times_sign
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[P_X:[a-z0-9_]+]]: i8, %[[P_W:[a-z0-9_]+]]: i8, %[[P_OUT:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[P_FLIP:.+]] = arith.constant -128 : i8
// CHECK-NEXT:      %[[P_SW:.+]] = arith.xori %[[P_W]], %[[P_FLIP]] : i8
// CHECK-NEXT:      %[[P_LIMIT:.+]] = arith.constant -127 : i8
// CHECK-NEXT:      %[[P_C:.+]] = arith.maxsi %[[P_X]], %[[P_LIMIT]] : i8
// CHECK-NEXT:      %[[P_WE:.+]] = arith.extsi %[[P_SW]] : i8 to i32
// CHECK-NEXT:      %[[P_CE:.+]] = arith.extsi %[[P_C]] : i8 to i32
// CHECK-NEXT:      arith.muli %[[P_WE]], %[[P_CE]] : i32
// CHECK:           %[[G_OFFSET:.+]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT:      arith.addf %{{.+}}, %[[G_OFFSET]] : f32
// CHECK:         return

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @magnitude_times_sign(%weights: tensor<20x3x16xi8>,
    %scales: tensor<20x3x1xf32>,
    %zero_points: tensor<20x3x1xf32>,
    %x: tensor<1x1x3x16xf32>) -> tensor<1x1x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x20xf32>
  %dequant_init = tensor.empty() : tensor<20x3x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x20xf32>) -> tensor<1x1x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<20x3x16xi8>, tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%dequant_init : tensor<20x3x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<20x3x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x1x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x20xf32>
  return %matvec : tensor<1x1x20xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 0, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
        magnitude_times_sign = %one : (!transform.any_op, !transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The offset form in a batch (13 tokens packed by 8): s / 127 and o / 127
// depend on the weights only (computed outside a prefill's token loop),
// xs · amax is one value per token:
// out += (s/127 · amax) · p − (o/127) · (xs · amax).
// CHECK-LABEL: func.func @prefill_offset_form
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<2x3x1x16x1xf32>, tensor<2x3x1x16x1xf32>, tensor<1x2x3x8xf32>, tensor<2x3x1x2x8x16xi32>, tensor<1x2x3x8xi32>)
// CHECK-NEXT:    ^bb0(%[[G_S:[a-z0-9_]+]]: f32, %[[G_O:[a-z0-9_]+]]: f32, %[[G_XS:[a-z0-9_]+]]: f32, %[[G_P:[a-z0-9_]+]]: i32, %[[G_MAX_BITS:[a-z0-9_]+]]: i32, %[[G_OUT:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[G_INV:.+]] = arith.constant 0.00787401571 : f32
// CHECK-NEXT:      %[[G_MAX:.+]] = arith.bitcast %[[G_MAX_BITS]] : i32 to f32
// CHECK-NEXT:      %[[G_WSCALE:.+]] = arith.mulf %[[G_S]], %[[G_INV]] : f32
// CHECK-NEXT:      %[[G_SCALE:.+]] = arith.mulf %[[G_WSCALE]], %[[G_MAX]] : f32
// CHECK-NEXT:      %[[G_WOFFSET:.+]] = arith.mulf %[[G_O]], %[[G_INV]] : f32
// CHECK-NEXT:      %[[G_SUMS:.+]] = arith.mulf %[[G_XS]], %[[G_MAX]] : f32
// CHECK-NEXT:      %[[G_OFFSET:.+]] = arith.mulf %[[G_WOFFSET]], %[[G_SUMS]] : f32
// CHECK-NEXT:      %[[G_PF:.+]] = arith.sitofp %[[G_P]] : i32 to f32
// CHECK-NEXT:      %[[G_SP:.+]] = arith.mulf %[[G_SCALE]], %[[G_PF]] : f32
// CHECK-NEXT:      %[[G_SUB:.+]] = arith.subf %[[G_SP]], %[[G_OFFSET]] : f32
// CHECK-NEXT:      %[[G_ADD:.+]] = arith.addf %[[G_SUB]], %[[G_OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[G_ADD]] : f32
// CHECK-NOT:     ub.poison
// CHECK:         return
#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @prefill_offset_form(%weights: tensor<20x3x16xi8>,
    %scales: tensor<20x3x1xf32>,
    %offsets: tensor<20x3x1xf32>,
    %x: tensor<1x13x3x16xf32>) -> tensor<1x13x20xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x13x20xf32>
  %dequant_init = tensor.empty() : tensor<20x3x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x13x20xf32>) -> tensor<1x13x20xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %offsets : tensor<20x3x16xi8>, tensor<20x3x1xf32>, tensor<20x3x1xf32>)
      outs(%dequant_init : tensor<20x3x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %offset: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    %shifted = arith.subf %scaled, %offset : f32
    linalg.yield %shifted : f32
  } -> tensor<20x3x16xf32>
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x13x3x16xf32>, tensor<20x3x16xf32>)
      outs(%acc : tensor<1x13x20xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x13x20xf32>
  return %matvec : tensor<1x13x20xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %packed = transform.structured.pack %contraction packed_sizes = [0, 8, 16, 0, 4]
      : (!transform.any_op) -> !transform.any_op
    %funcs = transform.structured.match ops{["func.func"]} in %module
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.qforge.pad_packs_with_zeros
      transform.apply_patterns.qforge.bubble_pack_through_dequant
      transform.apply_patterns.qforge.fold_into_packs
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %dq, %c = transform.qforge.match_dequant_contraction %module
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %quantization, %sums, %partials, %groups = transform.qforge.quantize_activations_and_factor_packed %dq, %c
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
