// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.x86_int8_dot_products
// (patterns/X86Int8DotProducts.pdll, lib/Patterns/ByteDotProducts.cpp). Each
// split carries its own script that applies the set to every func.func of
// the payload.
//
// What makes the rewrite exact (and what the positive checks pin down):
// llvm.x86.avx512.vpdpbusd.{512,256,128}(src, a, b) computes, for each i32
// lane i, src[i] + sum_{q < 4} zext(a[4 i + q]) * sext(b[4 i + q]) -- the
// *first* byte operand is the unsigned one. A multi_reduction <add> over the
// inner dim of 4 of extui(u) * extsi(s) : vector<Lx4xi32> computes
// acc[i] + sum_q zext(u[i, q]) * sext(s[i, q]), and shape_cast to vector<4Lxi8>
// is row-major, (i, q) -> 4 i + q. So the call must take (acc, u bytes,
// s bytes), each shape-cast as is; swapping u and s would read 0xFF weights
// as -1 instead of 255. The sums are exact in both forms (|u * s| <= 32640,
// four of them fit in 18 bits).

// The canonical form: 16 lanes -> vpdpbusd.512 on 64 bytes.

// CHECK-LABEL: func.func @lanes_16
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<16x4xi8>, %[[S:[a-z0-9_]+]]: vector<16x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<16xi32>)
// CHECK-NOT:     vector.multi_reduction
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<16x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<16x4xi8> to vector<64xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[UB]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT:     arith.muli
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<16xi32>
func.func @lanes_16(%u: vector<16x4xi8>, %s: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ue = arith.extui %u : vector<16x4xi8> to vector<16x4xi32>
  %se = arith.extsi %s : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ue, %se : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The multiply's operands swapped (signed first): the unsigned bytes still
// go to the first byte operand.

// CHECK-LABEL: func.func @swapped_operands
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<16x4xi8>, %[[S:[a-z0-9_]+]]: vector<16x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<16xi32>)
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<16x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<16x4xi8> to vector<64xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[UB]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<16xi32>
func.func @swapped_operands(%u: vector<16x4xi8>, %s: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ue = arith.extui %u : vector<16x4xi8> to vector<16x4xi32>
  %se = arith.extsi %s : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %se, %ue : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Execution-free semantic check: the bytes arrive as 64-byte vectors
// (as loaded) and are viewed as 16 lanes x 4 bytes for the reduction. The
// rewrite's shape_casts back to vector<64xi8> cancel, so the call must take
// the original byte vectors themselves, in their original order, the
// unsigned one first: lane i of vpdpbusd sums bytes 4 i .. 4 i + 3, which are
// exactly row i of the vector<16x4xi8> view that the reduction sums.

// CHECK-LABEL: func.func @bytes_in_memory_order
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<64xi8>, %[[S:[a-z0-9_]+]]: vector<64xi8>, %[[ACC:[a-z0-9_]+]]: vector<16xi32>)
// CHECK-NEXT:    %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[U]], %[[S]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NEXT:    return %[[R]] : vector<16xi32>
func.func @bytes_in_memory_order(%u: vector<64xi8>, %s: vector<64xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %u2 = vector.shape_cast %u : vector<64xi8> to vector<16x4xi8>
  %s2 = vector.shape_cast %s : vector<64xi8> to vector<16x4xi8>
  %se = arith.extsi %s2 : vector<16x4xi8> to vector<16x4xi32>
  %ue = arith.extui %u2 : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %se, %ue : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The vectorizer's form: the products broadcast to leading unit dims of
// the iteration space, the leading unit dim reduced along with the
// innermost; the accumulator and the result keep a unit dim, shape-cast
// away and back.

// CHECK-LABEL: func.func @vectorizer_broadcast
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<16x4xi8>, %[[S:[a-z0-9_]+]]: vector<16x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<1x16xi32>)
// CHECK-NOT:     vector.broadcast
// CHECK-DAG:     %[[A:.+]] = vector.shape_cast %[[ACC]] : vector<1x16xi32> to vector<16xi32>
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<16x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<16x4xi8> to vector<64xi8>
// CHECK:         %[[D:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[A]], %[[UB]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NEXT:    %[[R:.+]] = vector.shape_cast %[[D]] : vector<16xi32> to vector<1x16xi32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<1x16xi32>
func.func @vectorizer_broadcast(%u: vector<16x4xi8>, %s: vector<16x4xi8>, %acc: vector<1x16xi32>) -> vector<1x16xi32> {
  %ue = arith.extui %u : vector<16x4xi8> to vector<16x4xi32>
  %se = arith.extsi %s : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ue, %se : vector<16x4xi32>
  %b = vector.broadcast %p : vector<16x4xi32> to vector<1x1x16x4xi32>
  %r = vector.multi_reduction <add>, %b, %acc [0, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
  return %r : vector<1x16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The whole tiled partial-sums iteration space (d0, d1, n, g, j, l, q) with
// every dim but l and q of size 1: j (unit) and q reduced, the bytes already
// carrying the unit dims (the extensions after the broadcast of the reads).

// CHECK-LABEL: func.func @vectorizer_unit_dims
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<1x1x1x1x1x16x4xi8>, %[[S:[a-z0-9_]+]]: vector<1x1x1x1x1x16x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<1x1x1x1x16xi32>)
// CHECK-DAG:     %[[A:.+]] = vector.shape_cast %[[ACC]] : vector<1x1x1x1x16xi32> to vector<16xi32>
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<1x1x1x1x1x16x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<1x1x1x1x1x16x4xi8> to vector<64xi8>
// CHECK:         %[[D:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[A]], %[[UB]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NEXT:    %[[R:.+]] = vector.shape_cast %[[D]] : vector<16xi32> to vector<1x1x1x1x16xi32>
// CHECK:         return %[[R]] : vector<1x1x1x1x16xi32>
func.func @vectorizer_unit_dims(%u: vector<1x1x1x1x1x16x4xi8>, %s: vector<1x1x1x1x1x16x4xi8>, %acc: vector<1x1x1x1x16xi32>) -> vector<1x1x1x1x16xi32> {
  %ue = arith.extui %u : vector<1x1x1x1x1x16x4xi8> to vector<1x1x1x1x1x16x4xi32>
  %se = arith.extsi %s : vector<1x1x1x1x1x16x4xi8> to vector<1x1x1x1x1x16x4xi32>
  %p = arith.muli %se, %ue : vector<1x1x1x1x1x16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [4, 6] : vector<1x1x1x1x1x16x4xi32> to vector<1x1x1x1x16xi32>
  return %r : vector<1x1x1x1x16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Lanes in two dims: a two-level accumulator's lane group (2 sub-blocks) x
// 8 lanes, j (unit) reduced between them, the extensions shape-cast into
// the iteration space by the vectorizer. Row-major, lane (c, i) is lane
// 8 c + i of the 16 and its bytes 32 c + 4 i + q: one vpdpbusd.512.

// CHECK-LABEL: func.func @lanes_in_two_dims
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<2x1x8x4xi8>, %[[S:[a-z0-9_]+]]: vector<2x1x8x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<2x8xi32>)
// CHECK-DAG:     %[[A:.+]] = vector.shape_cast %[[ACC]] : vector<2x8xi32> to vector<16xi32>
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<2x1x8x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<2x1x8x4xi8> to vector<64xi8>
// CHECK:         %[[D:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[A]], %[[UB]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NEXT:    %[[R:.+]] = vector.shape_cast %[[D]] : vector<16xi32> to vector<2x8xi32>
// CHECK:         return %[[R]] : vector<2x8xi32>
func.func @lanes_in_two_dims(%u: vector<2x1x8x4xi8>, %s: vector<2x1x8x4xi8>, %acc: vector<2x8xi32>) -> vector<2x8xi32> {
  %ue = arith.extui %u : vector<2x1x8x4xi8> to vector<2x1x8x4xi32>
  %se = arith.extsi %s : vector<2x1x8x4xi8> to vector<2x1x8x4xi32>
  %uc = vector.shape_cast %ue : vector<2x1x8x4xi32> to vector<2x1x1x8x4xi32>
  %sc = vector.shape_cast %se : vector<2x1x8x4xi32> to vector<2x1x1x8x4xi32>
  %p = arith.muli %uc, %sc : vector<2x1x1x8x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1, 2, 4] : vector<2x1x1x8x4xi32> to vector<2x8xi32>
  return %r : vector<2x8xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Left alone: a reduced dim of 2 between the lanes (two products per lane
// summed across it: not vpdpbusd's four adjacent bytes), bytes shared by
// only some lanes (8 x 4 bytes broadcast over 2 x 8 lanes: neither every
// lane's nor one set of 4), one byte per lane repeated along its 4
// (broadcast from vector<4x1>: 4 bytes, but not 4 along k), and one scalar
// byte broadcast everywhere.

// CHECK-LABEL: func.func @not_lane_sums
// CHECK-NOT:     llvm.call_intrinsic
// CHECK-COUNT-4: vector.multi_reduction
// CHECK-NOT:     llvm.call_intrinsic
func.func @not_lane_sums(%u: vector<2x8x4xi8>, %s: vector<2x8x4xi8>, %acc: vector<8xi32>,
                         %shared: vector<8x4xi8>, %acc2: vector<2x8xi32>) -> (vector<8xi32>, vector<2x8xi32>) {
  %ue = arith.extui %u : vector<2x8x4xi8> to vector<2x8x4xi32>
  %se = arith.extsi %s : vector<2x8x4xi8> to vector<2x8x4xi32>
  %p = arith.muli %ue, %se : vector<2x8x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [0, 2] : vector<2x8x4xi32> to vector<8xi32>
  %xe = arith.extsi %shared : vector<8x4xi8> to vector<8x4xi32>
  %xb = vector.broadcast %xe : vector<8x4xi32> to vector<2x8x4xi32>
  %q = arith.muli %ue, %xb : vector<2x8x4xi32>
  %r2 = vector.multi_reduction <add>, %q, %acc2 [2] : vector<2x8x4xi32> to vector<2x8xi32>
  return %r, %r2 : vector<8xi32>, vector<2x8xi32>
}
func.func @not_lane_sums_shared(%u: vector<4x4xi8>, %perlane: vector<4x1xi8>, %one: i8, %acc: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>) {
  %ue = arith.extui %u : vector<4x4xi8> to vector<4x4xi32>
  %pe = arith.extsi %perlane : vector<4x1xi8> to vector<4x1xi32>
  %pb = vector.broadcast %pe : vector<4x1xi32> to vector<4x4xi32>
  %p = arith.muli %ue, %pb : vector<4x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<4x4xi32> to vector<4xi32>
  %oe = arith.extsi %one : i8 to i32
  %ob = vector.broadcast %oe : i32 to vector<4x4xi32>
  %q = arith.muli %ue, %ob : vector<4x4xi32>
  %r2 = vector.multi_reduction <add>, %q, %acc [1] : vector<4x4xi32> to vector<4xi32>
  return %r, %r2 : vector<4xi32>, vector<4xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A unit dim kept between the lanes and the bytes: (i, 0, q) is still byte
// 4 i + q of the row-major vector<64xi8>.

// CHECK-LABEL: func.func @inner_unit_dim_kept
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<16x1x4xi8>, %[[S:[a-z0-9_]+]]: vector<16x1x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<16x1xi32>)
// CHECK-DAG:     %[[A:.+]] = vector.shape_cast %[[ACC]] : vector<16x1xi32> to vector<16xi32>
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<16x1x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<16x1x4xi8> to vector<64xi8>
// CHECK:         %[[D:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[A]], %[[UB]], %[[SB]])
// CHECK-NEXT:    %[[R:.+]] = vector.shape_cast %[[D]] : vector<16xi32> to vector<16x1xi32>
// CHECK:         return %[[R]] : vector<16x1xi32>
func.func @inner_unit_dim_kept(%u: vector<16x1x4xi8>, %s: vector<16x1x4xi8>, %acc: vector<16x1xi32>) -> vector<16x1xi32> {
  %ue = arith.extui %u : vector<16x1x4xi8> to vector<16x1x4xi32>
  %se = arith.extsi %s : vector<16x1x4xi8> to vector<16x1x4xi32>
  %p = arith.muli %ue, %se : vector<16x1x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [2] : vector<16x1x4xi32> to vector<16x1xi32>
  return %r : vector<16x1xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// 8 lanes (AVX512VL, 256 bits) -> vpdpbusd.256 on 32 bytes.

// CHECK-LABEL: func.func @lanes_8
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<8x4xi8>, %[[S:[a-z0-9_]+]]: vector<8x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<8xi32>)
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<8x4xi8> to vector<32xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<8x4xi8> to vector<32xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%[[ACC]], %[[UB]], %[[SB]]) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<8xi32>
func.func @lanes_8(%u: vector<8x4xi8>, %s: vector<8x4xi8>, %acc: vector<8xi32>) -> vector<8xi32> {
  %ue = arith.extui %u : vector<8x4xi8> to vector<8x4xi32>
  %se = arith.extsi %s : vector<8x4xi8> to vector<8x4xi32>
  %p = arith.muli %ue, %se : vector<8x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<8x4xi32> to vector<8xi32>
  return %r : vector<8xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// 4 lanes (AVX512VL, 128 bits) -> vpdpbusd.128 on 16 bytes, through a
// broadcast as well.

// CHECK-LABEL: func.func @lanes_4
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<4x4xi8>, %[[S:[a-z0-9_]+]]: vector<4x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<1x4xi32>)
// CHECK-DAG:     %[[A:.+]] = vector.shape_cast %[[ACC]] : vector<1x4xi32> to vector<4xi32>
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<4x4xi8> to vector<16xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<4x4xi8> to vector<16xi8>
// CHECK:         %[[D:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"(%[[A]], %[[UB]], %[[SB]]) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
// CHECK-NEXT:    %[[R:.+]] = vector.shape_cast %[[D]] : vector<4xi32> to vector<1x4xi32>
// CHECK:         return %[[R]] : vector<1x4xi32>
func.func @lanes_4(%u: vector<4x4xi8>, %s: vector<4x4xi8>, %acc: vector<1x4xi32>) -> vector<1x4xi32> {
  %ue = arith.extui %u : vector<4x4xi8> to vector<4x4xi32>
  %se = arith.extsi %s : vector<4x4xi8> to vector<4x4xi32>
  %p = arith.muli %ue, %se : vector<4x4xi32>
  %b = vector.broadcast %p : vector<4x4xi32> to vector<1x4x4xi32>
  %r = vector.multi_reduction <add>, %b, %acc [2] : vector<1x4x4xi32> to vector<1x4xi32>
  return %r : vector<1x4xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Both operands sign-extended: s8 x s8 is not vpdpbusd (a byte 0xFF of
// the first operand would count as 255 instead of -1). Unchanged.

// CHECK-LABEL: func.func @both_signed
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         arith.muli %{{.+}}, %{{.+}} : vector<16x4xi32>
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @both_signed(%a: vector<16x4xi8>, %b: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extsi %a : vector<16x4xi8> to vector<16x4xi32>
  %be = arith.extsi %b : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ae, %be : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Both operands zero-extended: u8 x u8 is not vpdpbusd either (a byte 0xFF
// of the second operand would count as -1). Unchanged.

// CHECK-LABEL: func.func @both_unsigned
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         arith.muli %{{.+}}, %{{.+}} : vector<16x4xi32>
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @both_unsigned(%a: vector<16x4xi8>, %b: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<16x4xi8> to vector<16x4xi32>
  %be = arith.extui %b : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ae, %be : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// 16-bit sources (extui/extsi of i16): not bytes. Unchanged.

// CHECK-LABEL: func.func @i16_sources
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @i16_sources(%a: vector<16x4xi16>, %b: vector<16x4xi16>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<16x4xi16> to vector<16x4xi32>
  %be = arith.extsi %b : vector<16x4xi16> to vector<16x4xi32>
  %p = arith.muli %ae, %be : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Bytes extended to i64 and summed into i64 lanes: vpdpbusd accumulates
// in i32 only. Unchanged.

// CHECK-LABEL: func.func @i64_products
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @i64_products(%a: vector<16x4xi8>, %b: vector<16x4xi8>, %acc: vector<16xi64>) -> vector<16xi64> {
  %ae = arith.extui %a : vector<16x4xi8> to vector<16x4xi64>
  %be = arith.extsi %b : vector<16x4xi8> to vector<16x4xi64>
  %p = arith.muli %ae, %be : vector<16x4xi64>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi64> to vector<16xi64>
  return %r : vector<16xi64>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The 4 products of a lane 16 apart (vector<4x16>, dim 0 reduced), not
// adjacent: vpdpbusd on the row-major bytes would sum the wrong ones.
// Unchanged.

// CHECK-LABEL: func.func @outer_dim_reduced
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @outer_dim_reduced(%a: vector<4x16xi8>, %b: vector<4x16xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<4x16xi8> to vector<4x16xi32>
  %be = arith.extsi %b : vector<4x16xi8> to vector<4x16xi32>
  %p = arith.muli %ae, %be : vector<4x16xi32>
  %r = vector.multi_reduction <add>, %p, %acc [0] : vector<4x16xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The inner dim of 4 is kept (only a leading unit dim reduced): no sum
// over the 4 bytes at all. Unchanged.

// CHECK-LABEL: func.func @innermost_not_reduced
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @innermost_not_reduced(%a: vector<1x16x4xi8>, %b: vector<1x16x4xi8>, %acc: vector<16x4xi32>) -> vector<16x4xi32> {
  %ae = arith.extui %a : vector<1x16x4xi8> to vector<1x16x4xi32>
  %be = arith.extsi %b : vector<1x16x4xi8> to vector<1x16x4xi32>
  %p = arith.muli %ae, %be : vector<1x16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [0] : vector<1x16x4xi32> to vector<16x4xi32>
  return %r : vector<16x4xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// 8 products per lane: one vpdpbusd sums 4. Unchanged.

// CHECK-LABEL: func.func @inner_dim_8
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @inner_dim_8(%a: vector<16x8xi8>, %b: vector<16x8xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<16x8xi8> to vector<16x8xi32>
  %be = arith.extsi %b : vector<16x8xi8> to vector<16x8xi32>
  %p = arith.muli %ae, %be : vector<16x8xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x8xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// 32 lanes (1024 bits): there is no vpdpbusd.1024. Unchanged.

// CHECK-LABEL: func.func @lanes_32
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @lanes_32(%a: vector<32x4xi8>, %b: vector<32x4xi8>, %acc: vector<32xi32>) -> vector<32xi32> {
  %ae = arith.extui %a : vector<32x4xi8> to vector<32x4xi32>
  %be = arith.extsi %b : vector<32x4xi8> to vector<32x4xi32>
  %p = arith.muli %ae, %be : vector<32x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<32x4xi32> to vector<32xi32>
  return %r : vector<32xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// 2 lanes (64 bits): no such vpdpbusd either. Unchanged.

// CHECK-LABEL: func.func @lanes_2
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @lanes_2(%a: vector<2x4xi8>, %b: vector<2x4xi8>, %acc: vector<2xi32>) -> vector<2xi32> {
  %ae = arith.extui %a : vector<2x4xi8> to vector<2x4xi32>
  %be = arith.extsi %b : vector<2x4xi8> to vector<2x4xi32>
  %p = arith.muli %ae, %be : vector<2x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<2x4xi32> to vector<2xi32>
  return %r : vector<2xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A product, not a sum, of the byte products. Unchanged.

// CHECK-LABEL: func.func @kind_mul
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <mul>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @kind_mul(%a: vector<16x4xi8>, %b: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<16x4xi8> to vector<16x4xi32>
  %be = arith.extsi %b : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ae, %be : vector<16x4xi32>
  %r = vector.multi_reduction <mul>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A maximum of the byte products. Unchanged.

// CHECK-LABEL: func.func @kind_maxsi
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <maxsi>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @kind_maxsi(%a: vector<16x4xi8>, %b: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<16x4xi8> to vector<16x4xi32>
  %be = arith.extsi %b : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ae, %be : vector<16x4xi32>
  %r = vector.multi_reduction <maxsi>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A non-unit dim (2) reduced besides the innermost: 8 products per lane,
// two vpdpbusd's worth. Unchanged.

// CHECK-LABEL: func.func @non_unit_dim_reduced
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @non_unit_dim_reduced(%a: vector<2x16x4xi8>, %b: vector<2x16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<2x16x4xi8> to vector<2x16x4xi32>
  %be = arith.extsi %b : vector<2x16x4xi8> to vector<2x16x4xi32>
  %p = arith.muli %ae, %be : vector<2x16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [0, 2] : vector<2x16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A transpose between the products and the reduction: lane i sums the
// bytes (q, i) of the vector<4x16xi8> sources, which are 16 apart in their
// row-major order -- shape-casting the sources as they are would feed
// vpdpbusd the wrong groups of 4. Unchanged.

// CHECK-LABEL: func.func @transposed_products
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.transpose
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @transposed_products(%a: vector<4x16xi8>, %b: vector<4x16xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<4x16xi8> to vector<4x16xi32>
  %be = arith.extsi %b : vector<4x16xi8> to vector<4x16xi32>
  %p = arith.muli %ae, %be : vector<4x16xi32>
  %t = vector.transpose %p, [1, 0] : vector<4x16xi32> to vector<16x4xi32>
  %r = vector.multi_reduction <add>, %t, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A broadcast that replicates (4 products, the same for every lane), not
// one that only adds unit dims: there are no 64 bytes to hand over.
// Unchanged.

// CHECK-LABEL: func.func @stretching_broadcast
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.broadcast %{{.+}} : vector<4xi32> to vector<16x4xi32>
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @stretching_broadcast(%a: vector<4xi8>, %b: vector<4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<4xi8> to vector<4xi32>
  %be = arith.extsi %b : vector<4xi8> to vector<4xi32>
  %p = arith.muli %ae, %be : vector<4xi32>
  %bc = vector.broadcast %p : vector<4xi32> to vector<16x4xi32>
  %r = vector.multi_reduction <add>, %bc, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A sum of extended bytes (addi), not a product. Unchanged.

// CHECK-LABEL: func.func @not_a_product
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction <add>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @not_a_product(%a: vector<16x4xi8>, %b: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ae = arith.extui %a : vector<16x4xi8> to vector<16x4xi32>
  %be = arith.extsi %b : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.addi %ae, %be : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A *masked* byte-product reduction.
//
// Under vector.mask, products whose mask bit is off take no part in the sum:
// lane i is acc[i] + sum over q with m[i, q] of zext(u[i, q]) * sext(s[i, q]).
// vpdpbusd has no mask operand, so a rewrite that drops the mask sums the
// masked-off products too (wrong result), and a rewrite placed inside the
// vector.mask region breaks the region's one-maskable-op rule (invalid IR).
// Until the pattern applies the mask (e.g. by zeroing the masked-off bytes),
// it must leave masked reductions alone.

// CHECK-LABEL: func.func @masked_reduction
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<16x4xi8>, %[[S:[a-z0-9_]+]]: vector<16x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<16xi32>, %[[M:[a-z0-9_]+]]: vector<16x4xi1>)
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         %[[P:.+]] = arith.muli %{{.+}}, %{{.+}} : vector<16x4xi32>
// CHECK:         %[[R:.+]] = vector.mask %[[M]] { vector.multi_reduction <add>, %[[P]], %[[ACC]] [1] : vector<16x4xi32> to vector<16xi32> } : vector<16x4xi1> -> vector<16xi32>
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return %[[R]] : vector<16xi32>
func.func @masked_reduction(%u: vector<16x4xi8>, %s: vector<16x4xi8>, %acc: vector<16xi32>, %m: vector<16x4xi1>) -> vector<16xi32> {
  %ue = arith.extui %u : vector<16x4xi8> to vector<16x4xi32>
  %se = arith.extsi %s : vector<16x4xi8> to vector<16x4xi32>
  %p = arith.muli %ue, %se : vector<16x4xi32>
  %r = vector.mask %m { vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32> } : vector<16x4xi1> -> vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The same 4 activation bytes for every lane (packed weights: 16 rows x 4
// bytes of k, one activation value per k), extended then broadcast: the
// 4 bytes are broadcast as one i32 word to the 16 lanes (a vpbroadcastd;
// as vector<16x4xi8> it lowered to 16 inserts taken apart again), then
// one vpdpbusd.

// CHECK-LABEL: func.func @broadcast_signed_bytes
// CHECK-SAME:    (%[[U:[a-z0-9_]+]]: vector<16x4xi8>, %[[S:[a-z0-9_]+]]: vector<4xi8>, %[[ACC:[a-z0-9_]+]]: vector<16xi32>)
// CHECK-DAG:     %[[SW:.+]] = vector.bitcast %[[S]] : vector<4xi8> to vector<1xi32>
// CHECK-DAG:     %[[SX:.+]] = vector.broadcast %[[SW]] : vector<1xi32> to vector<16xi32>
// CHECK-DAG:     %[[UB:.+]] = vector.shape_cast %[[U]] : vector<16x4xi8> to vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.bitcast %[[SX]] : vector<16xi32> to vector<64xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[UB]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<16xi32>
func.func @broadcast_signed_bytes(%u: vector<16x4xi8>, %s: vector<4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %ue = arith.extui %u : vector<16x4xi8> to vector<16x4xi32>
  %se = arith.extsi %s : vector<4xi8> to vector<4xi32>
  %sb = vector.broadcast %se : vector<4xi32> to vector<16x4xi32>
  %p = arith.muli %ue, %sb : vector<16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A sum of 4 signed bytes per i32 lane (no product) is vpdpbusd with
// unsigned bytes of 1: 1 * sext(s) per byte, exact.

// CHECK-LABEL: func.func @signed_byte_lane_sums
// CHECK-SAME:    (%[[S:[a-z0-9_]+]]: vector<16x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<16xi32>)
// CHECK-DAG:     %[[ONES:.+]] = arith.constant dense<1> : vector<64xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<16x4xi8> to vector<64xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[ACC]], %[[ONES]], %[[SB]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<16xi32>
func.func @signed_byte_lane_sums(%s: vector<16x4xi8>, %acc: vector<16xi32>) -> vector<16xi32> {
  %se = arith.extsi %s : vector<16x4xi8> to vector<16x4xi32>
  %r = vector.multi_reduction <add>, %se, %acc [1] : vector<16x4xi32> to vector<16xi32>
  return %r : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The same sum in f32 (the integer decode's activation sums, Σxq per lane),
// with the vectorizer's leading unit dims: the 4 bytes summed exactly in
// i32 from zero, converted, then added to the accumulator.

// CHECK-LABEL: func.func @signed_byte_lane_sums_f32
// CHECK-SAME:    (%[[S:[a-z0-9_]+]]: vector<8x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<1x8xf32>)
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant dense<0> : vector<8xi32>
// CHECK-DAG:     %[[ONES:.+]] = arith.constant dense<1> : vector<32xi8>
// CHECK-DAG:     %[[SB:.+]] = vector.shape_cast %[[S]] : vector<8x4xi8> to vector<32xi8>
// CHECK:         %[[SUM:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%[[ZERO]], %[[ONES]], %[[SB]]) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// CHECK:         %[[F:.+]] = arith.sitofp %[[SUM]] : vector<8xi32> to vector<8xf32>
// CHECK:         %[[A:.+]] = vector.shape_cast %[[ACC]] : vector<1x8xf32> to vector<8xf32>
// CHECK:         %[[R:.+]] = arith.addf %[[A]], %[[F]] : vector<8xf32>
// CHECK:         %[[R2:.+]] = vector.shape_cast %[[R]] : vector<8xf32> to vector<1x8xf32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R2]] : vector<1x8xf32>
func.func @signed_byte_lane_sums_f32(%s: vector<8x4xi8>, %acc: vector<1x8xf32>) -> vector<1x8xf32> {
  %sf = arith.sitofp %s : vector<8x4xi8> to vector<8x4xf32>
  %b = vector.broadcast %sf : vector<8x4xf32> to vector<1x1x8x4xf32>
  %r = vector.multi_reduction <add>, %b, %acc [1, 3] : vector<1x1x8x4xf32> to vector<1x8xf32>
  return %r : vector<1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Not matched as signed-byte sums (the pattern takes only sums of
// sign-extended or signed-converted bytes into 4, 8 or 16 i32 or f32
// lanes): zero-extended bytes (their sum would need the bytes as the
// unsigned operand and ones as the signed one, which the pattern does not
// build), unsigned conversions, signed 16-bit values, a maximum, a masked
// sum, 2 lanes, and f16 lanes.

// CHECK-LABEL: func.func @not_signed_byte_sums
// CHECK-NOT:     llvm.call_intrinsic
// CHECK-COUNT-7: vector.multi_reduction
// CHECK-NOT:     llvm.call_intrinsic
func.func @not_signed_byte_sums(%u: vector<16x4xi8>, %h: vector<16x4xi16>, %acc: vector<16xi32>, %facc: vector<16xf32>,
                                %m: vector<16x4xi1>, %two: vector<2x4xi8>, %acc2: vector<2xi32>, %hacc: vector<16xf16>)
    -> (vector<16xi32>, vector<16xf32>, vector<16xi32>, vector<16xf32>, vector<16xi32>, vector<2xi32>, vector<16xf16>) {
  %ue = arith.extui %u : vector<16x4xi8> to vector<16x4xi32>
  %r0 = vector.multi_reduction <add>, %ue, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %hf = arith.sitofp %h : vector<16x4xi16> to vector<16x4xf32>
  %r1 = vector.multi_reduction <add>, %hf, %facc [1] : vector<16x4xf32> to vector<16xf32>
  %se = arith.extsi %u : vector<16x4xi8> to vector<16x4xi32>
  %r2 = vector.multi_reduction <maxsi>, %se, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %uf = arith.uitofp %u : vector<16x4xi8> to vector<16x4xf32>
  %r3 = vector.multi_reduction <add>, %uf, %facc [1] : vector<16x4xf32> to vector<16xf32>
  %r4 = vector.mask %m { vector.multi_reduction <add>, %se, %acc [1] : vector<16x4xi32> to vector<16xi32> } : vector<16x4xi1> -> vector<16xi32>
  %te = arith.extsi %two : vector<2x4xi8> to vector<2x4xi32>
  %r5 = vector.multi_reduction <add>, %te, %acc2 [1] : vector<2x4xi32> to vector<2xi32>
  %sh = arith.sitofp %u : vector<16x4xi8> to vector<16x4xf16>
  %r6 = vector.multi_reduction <add>, %sh, %hacc [1] : vector<16x4xf16> to vector<16xf16>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : vector<16xi32>, vector<16xf32>, vector<16xi32>, vector<16xf32>, vector<16xi32>, vector<2xi32>, vector<16xf16>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.yield
  }
}
