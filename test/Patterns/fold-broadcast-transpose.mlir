// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.fold_broadcast_transpose
// (patterns/FoldBroadcastTranspose.pdll). vector.broadcast aligns the source
// dims with the *trailing* result dims; the fold is only valid when the
// transpose keeps the dims along which the broadcast value varies (non-unit
// source dims) in their relative order.

// Scalar source: the value is constant along every dim, any permutation folds.

// CHECK-LABEL: func.func @scalar_source
// CHECK-SAME:    (%[[S:.+]]: f32)
// CHECK-NOT:     vector.transpose
// CHECK:         %[[B:.+]] = vector.broadcast %[[S]] : f32 to vector<8x4xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[B]] : vector<8x4xf32>
func.func @scalar_source(%s: f32) -> vector<8x4xf32> {
  %b = vector.broadcast %s : f32 to vector<4x8xf32>
  %t = vector.transpose %b, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %t : vector<8x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Only the leading (broadcast) dims are permuted; the source dim stays last.

// CHECK-LABEL: func.func @leading_dims_only
// CHECK-SAME:    (%[[S:.+]]: vector<16xf32>)
// CHECK-NOT:     vector.transpose
// CHECK:         %[[B:.+]] = vector.broadcast %[[S]] : vector<16xf32> to vector<4x2x16xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[B]] : vector<4x2x16xf32>
func.func @leading_dims_only(%s: vector<16xf32>) -> vector<4x2x16xf32> {
  %b = vector.broadcast %s : vector<16xf32> to vector<2x4x16xf32>
  %t = vector.transpose %b, [1, 0, 2] : vector<2x4x16xf32> to vector<4x2x16xf32>
  return %t : vector<4x2x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A per-row scale (unit trailing source dim): the varying dim 1 stays in
// place, the transpose swaps the leading broadcast dim with the stretched
// unit dim. t[i, j, k] = b[k, j, i] = s[j, 0], which is broadcast(s) to
// 1x8x4 (s aligned with the trailing 8x4, its unit dim stretched to 4).

// CHECK-LABEL: func.func @unit_source_dim_moved
// CHECK-SAME:    (%[[S:.+]]: vector<8x1xf32>)
// CHECK-NOT:     vector.transpose
// CHECK:         %[[B:.+]] = vector.broadcast %[[S]] : vector<8x1xf32> to vector<1x8x4xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[B]] : vector<1x8x4xf32>
func.func @unit_source_dim_moved(%s: vector<8x1xf32>) -> vector<1x8x4xf32> {
  %b = vector.broadcast %s : vector<8x1xf32> to vector<4x8x1xf32>
  %t = vector.transpose %b, [2, 1, 0] : vector<4x8x1xf32> to vector<1x8x4xf32>
  return %t : vector<1x8x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A source unit dim stretched by the broadcast and moved by the transpose.

// CHECK-LABEL: func.func @stretched_unit_dim
// CHECK-SAME:    (%[[S:.+]]: vector<1x16xf32>)
// CHECK-NOT:     vector.transpose
// CHECK:         %[[B:.+]] = vector.broadcast %[[S]] : vector<1x16xf32> to vector<8x4x16xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[B]] : vector<8x4x16xf32>
func.func @stretched_unit_dim(%s: vector<1x16xf32>) -> vector<8x4x16xf32> {
  %b = vector.broadcast %s : vector<1x16xf32> to vector<4x8x16xf32>
  %t = vector.transpose %b, [1, 0, 2] : vector<4x8x16xf32> to vector<8x4x16xf32>
  return %t : vector<8x4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The broadcast has another user: the transpose is still replaced, the
// original broadcast stays for that user.

// CHECK-LABEL: func.func @broadcast_with_other_use
// CHECK-SAME:    (%[[S:.+]]: vector<16xf32>)
// CHECK-DAG:     %[[B:.+]] = vector.broadcast %[[S]] : vector<16xf32> to vector<2x4x16xf32>
// CHECK-DAG:     %[[T:.+]] = vector.broadcast %[[S]] : vector<16xf32> to vector<4x2x16xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[T]], %[[B]] : vector<4x2x16xf32>, vector<2x4x16xf32>
func.func @broadcast_with_other_use(%s: vector<16xf32>) -> (vector<4x2x16xf32>, vector<2x4x16xf32>) {
  %b = vector.broadcast %s : vector<16xf32> to vector<2x4x16xf32>
  %t = vector.transpose %b, [1, 0, 2] : vector<2x4x16xf32> to vector<4x2x16xf32>
  return %t, %b : vector<4x2x16xf32>, vector<2x4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Not folded: the transpose swaps the two varying dims (a real transpose of
// the source data).

// CHECK-LABEL: func.func @moves_varying_dim
// CHECK-SAME:    (%[[S:.+]]: vector<8x16xf32>)
// CHECK:         %[[B:.+]] = vector.broadcast %[[S]] : vector<8x16xf32> to vector<4x8x16xf32>
// CHECK-NEXT:    %[[T:.+]] = vector.transpose %[[B]], [0, 2, 1] : vector<4x8x16xf32> to vector<4x16x8xf32>
// CHECK-NEXT:    return %[[T]] : vector<4x16x8xf32>
func.func @moves_varying_dim(%s: vector<8x16xf32>) -> vector<4x16x8xf32> {
  %b = vector.broadcast %s : vector<8x16xf32> to vector<4x8x16xf32>
  %t = vector.transpose %b, [0, 2, 1] : vector<4x8x16xf32> to vector<4x16x8xf32>
  return %t : vector<4x16x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Equal sizes. First pair, not folded: the transpose swaps the two varying
// dims, t[i, j, k] = b[i, k, j] = s[k, j], a real transpose of the data
// (a plain broadcast(s) would verify but give s[j, k]). Second pair, folded:
// vb[i, j] = v[j], so vt[i, j] = vb[j, i] = v[i], the column vector v
// (shape_cast to 8x1) broadcast along j -- not broadcast(v), which is v[j].

// CHECK-LABEL: func.func @moves_varying_dim_same_sizes
// CHECK-SAME:    (%[[S:.+]]: vector<8x8xf32>, %[[V:.+]]: vector<8xf32>)
// CHECK:         %[[B:.+]] = vector.broadcast %[[S]] : vector<8x8xf32> to vector<2x8x8xf32>
// CHECK-NEXT:    %[[T:.+]] = vector.transpose %[[B]], [0, 2, 1] : vector<2x8x8xf32> to vector<2x8x8xf32>
// CHECK:         %[[COL:.+]] = vector.shape_cast %[[V]] : vector<8xf32> to vector<8x1xf32>
// CHECK-NEXT:    %[[VT:.+]] = vector.broadcast %[[COL]] : vector<8x1xf32> to vector<8x8xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[T]], %[[VT]]
func.func @moves_varying_dim_same_sizes(%s: vector<8x8xf32>, %v: vector<8xf32>)
    -> (vector<2x8x8xf32>, vector<8x8xf32>) {
  %b = vector.broadcast %s : vector<8x8xf32> to vector<2x8x8xf32>
  %t = vector.transpose %b, [0, 2, 1] : vector<2x8x8xf32> to vector<2x8x8xf32>
  %vb = vector.broadcast %v : vector<8xf32> to vector<8x8xf32>
  %vt = vector.transpose %vb, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
  return %t, %vt : vector<2x8x8xf32>, vector<8x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The per-row scale as upstream's transfer_read permutation lowering emits it
// for a read through (d0, d1, 0): the varying dim (8) moves from position 1
// to position 0, t[i, j, k] = s[i, 0]. A single broadcast of %s cannot say
// this (it aligns vector<8x1xf32> with the trailing 128x1), so the unit dims
// are moved first: shape_cast to 8x1x1, then broadcast along the 128.

// CHECK-LABEL: func.func @per_row_scale_varying_dim_moves
// CHECK-SAME:    (%[[S:.+]]: vector<8x1xf32>)
// CHECK-NOT:     vector.transpose
// CHECK:         %[[C:.+]] = vector.shape_cast %[[S]] : vector<8x1xf32> to vector<8x1x1xf32>
// CHECK-NEXT:    %[[B:.+]] = vector.broadcast %[[C]] : vector<8x1x1xf32> to vector<8x128x1xf32>
// CHECK-NEXT:    return %[[B]] : vector<8x128x1xf32>
func.func @per_row_scale_varying_dim_moves(%s: vector<8x1xf32>) -> vector<8x128x1xf32> {
  %b = vector.broadcast %s : vector<8x1xf32> to vector<128x8x1xf32>
  %t = vector.transpose %b, [1, 0, 2] : vector<128x8x1xf32> to vector<8x128x1xf32>
  return %t : vector<8x128x1xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The vectorized per-row term of the seed kernel's zero-point correction:
// only unit dims move, the transpose is a shape_cast and the broadcast is an
// identity.

// CHECK-LABEL: func.func @seed_zero_point_term
// CHECK-SAME:    (%[[S:.+]]: vector<16x32x1xf32>)
// CHECK-NOT:     vector.transpose
// CHECK:         %[[C:.+]] = vector.shape_cast %[[S]] : vector<16x32x1xf32> to vector<1x1x16x32xf32>
// CHECK:         return
func.func @seed_zero_point_term(%s: vector<16x32x1xf32>) -> vector<1x1x16x32xf32> {
  %b = vector.broadcast %s : vector<16x32x1xf32> to vector<1x16x32x1xf32>
  %t = vector.transpose %b, [0, 3, 1, 2] : vector<1x16x32x1xf32> to vector<1x1x16x32xf32>
  return %t : vector<1x1x16x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_broadcast_transpose
    } : !transform.any_op
    transform.yield
  }
}
