// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics --mlir-print-local-scope | FileCheck %s

// transform.qforge.factor_two_level_contraction on the two-level form of
// llama.cpp's K-quants (docs/gguf.md): weight (n, b, c, h, l) is s·q − o of
// its sub-block (b, c, h), q nibble h of byte (n, b, c, l) -- the nibble half
// a group dim, read through linalg.index -- and the contraction sums over
// b, c, h and the element l. Factored with l = (j, 16 lanes):
//   activation_sums  loops (b, c, h, j, m, l)     j reduced, then
//                    loops (b, c, h, m, l)        l reduced: one per sub-block
//   partial_sums     loops (n, b, c, h, j, m, l)  j reduced; q's own ops
//   group_sums       loops (n, b, c, h, m, l)     b, c, h reduced: s·p
//   offset_sums      loops (n, m, b, c, h)        b reduced: −o·xs per
//                                                 sub-block, (c, h) kept
//                    loops (n, m, c, h)           c, h reduced into out
//   row_sums         loops (n, m, l)              l reduced into that

// CHECK-LABEL: func.func @two_level
// CHECK-SAME:    (%[[QS:[a-z0-9_]+]]: tensor<2x1x4x32xi8>, %[[S:[a-z0-9_]+]]: tensor<2x1x4x2xf32>, %[[O:[a-z0-9_]+]]: tensor<2x1x4x2xf32>, %[[X:[a-z0-9_]+]]: tensor<1x1x4x2x32xf32>)
// CHECK:         %[[XE:.+]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2], [3], [4, 5]] output_shape [1, 1, 4, 2, 2, 16]
// CHECK:         %[[XL:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d1, d2, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]] : tensor<1x1x4x2x2x16xf32>) outs(%{{.+}} : tensor<1x1x4x2x16xf32>) attrs = {activation_sums, qforge.two_level_groups = 3 : i64}
// CHECK:         %[[XS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[XL]] : tensor<1x1x4x2x16xf32>) outs(%{{.+}} : tensor<1x1x4x2xf32>) attrs = {activation_sums, qforge.two_level_groups = 3 : i64}
// CHECK:         %[[QE:.+]] = tensor.expand_shape %[[QS]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [2, 1, 4, 2, 16] : tensor<2x1x4x32xi8> into tensor<2x1x4x2x16xi8>
// CHECK:         %[[P:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d1, d2, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d0, d1, d2, d3, d6)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[XE]], %[[QE]] : tensor<1x1x4x2x2x16xf32>, tensor<2x1x4x2x16xi8>) outs(%{{.+}} : tensor<1x2x1x4x2x16xf32>) attrs = {partial_sums, qforge.two_level_groups = 3 : i64}
// CHECK-NEXT:    ^bb0(%[[XIN:.+]]: f32, %[[BYTE:.+]]: i8, %[[POUT:.+]]: f32):
// The nibble half is loop 3 of the partial sums (h), as it was of the
// dequantization.
// CHECK-NEXT:      %[[HALF:.+]] = linalg.index 3 : index
// CHECK:           %[[SHIFTED:.+]] = arith.shrui %[[BYTE]], %{{.+}} : i8
// CHECK:           %[[NIBBLE:.+]] = arith.andi %[[SHIFTED]], %{{.+}} : i8
// CHECK-NEXT:      %[[Q:.+]] = arith.uitofp %[[NIBBLE]] : i8 to f32
// CHECK-NEXT:      %[[XQ:.+]] = arith.mulf %[[XIN]], %[[Q]] : f32
// CHECK-NEXT:      %[[PSUM:.+]] = arith.addf %[[POUT]], %[[XQ]] : f32
// CHECK-NEXT:      linalg.yield %[[PSUM]] : f32
// CHECK:         %[[ACC:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d1, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d5)>]
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[S]], %[[P]] : tensor<2x1x4x2xf32>, tensor<1x2x1x4x2x16xf32>) outs(%{{.+}} : tensor<1x2x16xf32>) attrs = {group_sums, qforge.two_level_groups = 3 : i64}
// CHECK-NEXT:    ^bb0(%[[SIN:.+]]: f32, %[[PIN:.+]]: f32, %[[AOUT:.+]]: f32):
// CHECK-NEXT:      %[[SP:.+]] = arith.mulf %[[SIN]], %[[PIN]] : f32
// CHECK-NEXT:      %[[ASUM:.+]] = arith.addf %[[AOUT]], %[[SP]] : f32
// The offset stays an offset: −o·xs, never (p − o/s·xs)·s; one product per
// row and sub-block, summed over b only.
// CHECK:         %[[OFF:.+]] = linalg.generic
// CHECK-SAME:      indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d3, d4)>]
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:      ins(%[[O]], %[[XS]] : tensor<2x1x4x2xf32>, tensor<1x1x4x2xf32>) outs(%{{.+}} : tensor<1x2x4x2xf32>) attrs = {offset_sums, qforge.two_level_groups = 3 : i64}
// CHECK-NEXT:    ^bb0(%[[OIN:.+]]: f32, %[[XSIN:.+]]: f32, %[[OOUT:.+]]: f32):
// CHECK-NEXT:      %[[OX:.+]] = arith.mulf %[[OIN]], %[[XSIN]] : f32
// CHECK-NEXT:      %[[NEG:.+]] = arith.negf %[[OX]] : f32
// CHECK-NEXT:      arith.addf %[[OOUT]], %[[NEG]] : f32
// CHECK:         %[[OROWS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[OFF]] : tensor<1x2x4x2xf32>) outs(%{{.+}} : tensor<1x2xf32>) attrs = {offset_sums, qforge.two_level_groups = 3 : i64}
// CHECK:         %[[ROWS:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[ACC]] : tensor<1x2x16xf32>) outs(%[[OROWS]] : tensor<1x2xf32>) attrs = {qforge.two_level_groups = 3 : i64, row_sums}
// CHECK:         return %[[ROWS]] : tensor<1x2xf32>
#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
#x = affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>
#w = affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>
#y = affine_map<(m, n, b, c, h, l) -> (m, n)>
func.func @two_level(%qs: tensor<2x1x4x32xi8>, %scale: tensor<2x1x4x2xf32>, %offset: tensor<2x1x4x2xf32>,
                     %x: tensor<1x1x4x2x32xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x4x2x32xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #param, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x4x32xi8>, tensor<2x1x4x2xf32>, tensor<2x1x4x2xf32>)
      outs(%init : tensor<2x1x4x2x32xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x4x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #y],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x4x2x32xf32>, tensor<2x1x4x2x32xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 16}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %offsets "offset_sums" : !transform.any_op
    transform.annotate %rows "row_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// With int8_activations: x quantized per sub-block (amax over l), l split as
// (j, 8 lanes, 4 bytes), p summed in i32 from the nibble as an unsigned byte
// times the signed activation byte (vpdpbusd's operands); the scales times
// amax/127 in their own elementwise generic (sa), the group sums sa·p, and
// the activation's sub-block sums scaled by amax/127 once per call.
// CHECK-LABEL: func.func @two_level_int8
// CHECK:         %[[AMAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}}outs(%{{.+}} : tensor<1x1x4x2xi32>)
// CHECK:         linalg.generic {{.*}}outs(%{{.+}} : tensor<1x1x4x2x32xi8>)
// CHECK:         linalg.generic {{.*}}ins(%{{.+}} : tensor<1x1x4x2x1x8x4xi8>) outs(%{{.+}} : tensor<1x1x4x2x8xf32>) attrs = {activation_sums, qforge.two_level_groups = 3 : i64}
// CHECK:         linalg.generic {{.*}}ins(%{{.+}}, %[[AMAX]] : tensor<1x1x4x2x8xf32>, tensor<1x1x4x2xi32>) outs(%{{.+}} : tensor<1x1x4x2xf32>) attrs = {activation_sums, qforge.two_level_groups = 3 : i64}
// CHECK:           arith.bitcast %{{.+}} : i32 to f32
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x1x4x2x1x8x4xi8>, tensor<2x1x4x1x8x4xi8>) outs(%{{.+}} : tensor<1x2x1x4x2x8xi32>) attrs = {partial_sums, qforge.two_level_groups = 3 : i64}
// CHECK:           %[[W:.+]] = arith.extui %{{.+}} : i8 to i32
// CHECK-NEXT:      %[[X:.+]] = arith.extsi %{{.+}} : i8 to i32
// CHECK-NEXT:      %[[WX:.+]] = arith.muli %[[W]], %[[X]] : i32
// CHECK-NEXT:      arith.addi %[[WX]], %{{.+}} : i32
// CHECK:         %[[SA:.+]] = linalg.generic {{.*}}ins(%{{.+}}, %[[AMAX]] : tensor<2x1x4x2xf32>, tensor<1x1x4x2xi32>) outs(%{{.+}} : tensor<2x1x4x2x1xf32>)
// CHECK:         linalg.generic {{.*}}ins(%[[SA]], %{{.+}} : tensor<2x1x4x2x1xf32>, tensor<1x2x1x4x2x8xi32>) outs(%{{.+}} : tensor<1x2x8xf32>) attrs = {group_sums, qforge.two_level_groups = 3 : i64}
// CHECK-NEXT:    ^bb0(%[[SAIN:.+]]: f32, %[[P:.+]]: i32, %{{.+}}: f32):
// CHECK-NEXT:      %[[PF:.+]] = arith.sitofp %[[P]] : i32 to f32
// CHECK-NEXT:      arith.mulf %[[SAIN]], %[[PF]] : f32
// CHECK:         linalg.generic {{.*}}outs(%{{.+}} : tensor<1x2x4x2xf32>) attrs = {offset_sums, qforge.two_level_groups = 3 : i64}

#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
#x = affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>
#w = affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>
#y = affine_map<(m, n, b, c, h, l) -> (m, n)>
func.func @two_level_int8(%qs: tensor<2x1x4x32xi8>, %scale: tensor<2x1x4x2xf32>, %offset: tensor<2x1x4x2xf32>,
                     %x: tensor<1x1x4x2x32xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x4x2x32xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #param, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x4x32xi8>, tensor<2x1x4x2xf32>, tensor<2x1x4x2xf32>)
      outs(%init : tensor<2x1x4x2x32xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x4x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #y],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x4x2x32xf32>, tensor<2x1x4x2x32xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}


module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 8, int8_activations}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %sums "activation_sums" : !transform.any_op
    transform.annotate %partials "partial_sums" : !transform.any_op
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.annotate %offsets "offset_sums" : !transform.any_op
    transform.yield
  }
}

// -----

// With lane_groups = 1: the group dim outside the element dim in the
// weights' bytes (c, two 32-byte chunks of one 64-byte slice) stays a lane
// dim of the group sums' accumulator (acc [m, n, c, lane]: 2 x 8 lanes),
// summed by the row sums; xq stores c directly outside the element, so a
// step's 2 x 32 activation bytes follow each other as the weights' do.
// CHECK-LABEL: func.func @two_level_int8_lane_group
// CHECK:         %[[AMAX:.+]] = linalg.generic {{.*}}outs(%{{.+}} : tensor<1x1x2x2xi32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d2, d4)>]
// CHECK-SAME:      outs(%{{.+}} : tensor<1x1x2x2x32xi8>)
// CHECK:         linalg.generic {{.*}}ins(%{{.+}}, %[[AMAX]] : tensor<1x1x2x2x8xf32>, tensor<1x1x2x2xi32>)
// CHECK:         linalg.generic {{.*}}-> (d4, d0, d2, d5)>], iterator_types = ["parallel", "reduction", "parallel", "reduction", "parallel", "parallel"]}
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<2x1x2x2x1xf32>, tensor<1x2x1x2x2x8xi32>) outs(%{{.+}} : tensor<1x2x2x8xf32>)
// CHECK-SAME:      attrs = {group_sums, qforge.two_level_groups = 3 : i64, qforge.two_level_lane_groups = array<i64: 1>}
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}} : tensor<1x2x2x8xf32>) outs(%{{.+}} : tensor<1x2xf32>)

#bytes = affine_map<(n, b, c, h, l) -> (n, b, c, l)>
#param = affine_map<(n, b, c, h, l) -> (n, b, c, h)>
#elem = affine_map<(n, b, c, h, l) -> (n, b, c, h, l)>
#x = affine_map<(m, n, b, c, h, l) -> (m, b, c, h, l)>
#w = affine_map<(m, n, b, c, h, l) -> (n, b, c, h, l)>
#y = affine_map<(m, n, b, c, h, l) -> (m, n)>
func.func @two_level_int8_lane_group(%qs: tensor<2x1x2x32xi8>, %scale: tensor<2x1x2x2xf32>, %offset: tensor<2x1x2x2xf32>,
                     %x: tensor<1x1x2x2x32xf32>) -> tensor<1x2xf32> {
  %c4 = arith.constant 4 : i8
  %c15 = arith.constant 15 : i8
  %init = tensor.empty() : tensor<2x1x2x2x32xf32>
  %w = linalg.generic {indexing_maps = [#bytes, #param, #param, #elem],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%qs, %scale, %offset : tensor<2x1x2x32xi8>, tensor<2x1x2x2xf32>, tensor<2x1x2x2xf32>)
      outs(%init : tensor<2x1x2x2x32xf32>) {
  ^bb0(%byte: i8, %s: f32, %o: f32, %unused: f32):
    %half = linalg.index 3 : index
    %half8 = arith.index_cast %half : index to i8
    %shift = arith.muli %half8, %c4 : i8
    %shifted = arith.shrui %byte, %shift : i8
    %nibble = arith.andi %shifted, %c15 : i8
    %q = arith.uitofp %nibble : i8 to f32
    %sq = arith.mulf %q, %s : f32
    %value = arith.subf %sq, %o : f32
    linalg.yield %value : f32
  } -> tensor<2x1x2x2x32xf32>
  %zero = arith.constant 0.0 : f32
  %y_init = tensor.empty() : tensor<1x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%y_init : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #y],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x1x2x2x32xf32>, tensor<2x1x2x2x32xf32>) outs(%acc : tensor<1x2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %product = arith.mulf %a, %b : f32
    %sum = arith.addf %out, %product : f32
    linalg.yield %sum : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %quantization, %sums, %partials, %groups, %offsets, %rows = transform.qforge.factor_two_level_contraction %func {lanes = 8, int8_activations, lane_groups = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %groups "group_sums" : !transform.any_op
    transform.yield
  }
}
