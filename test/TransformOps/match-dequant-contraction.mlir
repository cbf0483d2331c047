// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Positive tests for transform.qforge.match_dequant_contraction. The matched
// ops are reported by remarks that the script emits at the payload ops held
// by each result handle (checked with -verify-diagnostics); FileCheck checks
// that the matcher leaves the payload as it was.

// The seed form: weights read through the identity, scales and zero-points
// through (d0, d1, 0), extui + uitofp, (w - zp) * scale, then a contraction
// with two reduction dims (groups x elements).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @seed_form
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-NEXT:    ^bb0(%[[W:.+]]: i8, %[[SCALE:.+]]: f32, %[[ZP:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[W32:.+]] = arith.extui %[[W]] : i8 to i32
// CHECK-NEXT:      %[[WF:.+]] = arith.uitofp %[[W32]] : i32 to f32
// CHECK-NEXT:      %[[SH:.+]] = arith.subf %[[WF]], %[[ZP]] : f32
// CHECK-NEXT:      %[[SC:.+]] = arith.mulf %[[SH]], %[[SCALE]] : f32
// CHECK-NEXT:      linalg.yield %[[SC]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%{{.+}}, %[[D]] :
func.func @seed_form(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant}}
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// mulf operands swapped (scale * (w - zp)), the scale first among the inputs,
// and no integer extension before the cast.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @swapped_mulf
func.func @swapped_mulf(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant}}
  %d = linalg.generic {indexing_maps = [#group, #id, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %w, %zp : tensor<8x4x1xf32>, tensor<8x4x16xi8>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%scale: f32, %in: i8, %zero: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %scale, %shifted : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// Symmetric quantization: no zero-point, tofp(w) * scale.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @symmetric
func.func @symmetric(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant}}
  %d = linalg.generic {indexing_maps = [#id, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x4x16xi8>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// Signed weights: extsi + sitofp (i4 widened to i8 first, symmetric).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @signed_weights
func.func @signed_weights(%w: tensor<8x4x16xi4>, %s: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant}}
  %d = linalg.generic {indexing_maps = [#id, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x4x16xi4>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i4, %scale: f32, %out: f32):
    %w8 = arith.extsi %in : i4 to i8
    %w32 = arith.extsi %w8 : i8 to i32
    %wf = arith.sitofp %w32 : i32 to f32
    %scaled = arith.mulf %scale, %wf : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// Weights stored transposed (4x8x16, groups first) and read through a
// permutation map; the per-group parameters through (d0, d1, 0).

#perm = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @permuted_weights
func.func @permuted_weights(%w: tensor<4x8x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant}}
  %d = linalg.generic {indexing_maps = [#perm, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<4x8x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// A named contraction: linalg.batch_reduce_matmul reduces over the batch and
// k dims (two reduction iterators). Per-(batch, column) scales are read
// through (d0, 0, d2).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// CHECK-LABEL: func.func @batch_reduce_matmul
// CHECK:         %[[D:.+]] = linalg.generic
// CHECK:         linalg.batch_reduce_matmul ins(%{{.+}}, %[[D]] : tensor<4x1x16xf32>, tensor<4x16x8xf32>)
func.func @batch_reduce_matmul(%w: tensor<4x16x8xi8>, %s: tensor<4x1x8xf32>,
    %x: tensor<4x1x16xf32>, %acc: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %init = tensor.empty() : tensor<4x16x8xf32>
  // expected-remark @below {{dequant}}
  %d = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<4x16x8xi8>, tensor<4x1x8xf32>)
      outs(%init : tensor<4x16x8xf32>) {
  ^bb0(%in: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<4x16x8xf32>
  // expected-remark @below {{contraction}}
  %r = linalg.batch_reduce_matmul ins(%x, %d : tensor<4x1x16xf32>, tensor<4x16x8xf32>)
                                  outs(%acc : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// Two pairs in one function (plus a second function, to show the walk
// covers everything nested in the root). The handles hold the dequants and
// the contractions pair by pair in walk order: split them and tag each.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @two_pairs
func.func @two_pairs(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant 0}}
  %d0 = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{dequant 1}}
  %d1 = linalg.generic {indexing_maps = [#id, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x4x16xi8>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %out: f32):
    %wf = arith.sitofp %in : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction 1}}
  %r1 = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d1 : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  // expected-remark @below {{contraction 0}}
  %r0 = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d0 : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%r1 : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r0 : tensor<1x1x8xf32>
}

// CHECK-LABEL: func.func @third_pair
func.func @third_pair(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-remark @below {{dequant 2}}
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-remark @below {{contraction 2}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %d:3 = transform.split_handle %dequant
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c:3 = transform.split_handle %contraction
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %d#0, "dequant 0" : !transform.any_op
    transform.debug.emit_remark_at %d#1, "dequant 1" : !transform.any_op
    transform.debug.emit_remark_at %d#2, "dequant 2" : !transform.any_op
    transform.debug.emit_remark_at %c#0, "contraction 0" : !transform.any_op
    transform.debug.emit_remark_at %c#1, "contraction 1" : !transform.any_op
    transform.debug.emit_remark_at %c#2, "contraction 2" : !transform.any_op
    transform.yield
  }
}
