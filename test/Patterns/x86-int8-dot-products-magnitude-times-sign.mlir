// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for the magnitude-times-sign form of
// transform.apply_patterns.qforge.x86_int8_dot_products
// (patterns/X86Int8DotProducts.pdll, lib/Patterns/ByteDotProducts.cpp):
// 4-byte lane sums of signed weight bytes times activation bytes clamped to
// at least -127 (the int8 factorings' `magnitude_times_sign`, for AVX2
// without VNNI). Each product w · c is |w| · (c with w's sign): |w| read
// unsigned is at most 128 (|-128| = 0x80) and c with w's sign is within
// +-127 (c >= -127), so vpdpbusd(acc, |w|, c · sign(w)) sums the same
// products exactly (and the expansion without VNNI sums each pair with one
// vpmaddubsw, ExpandByteDotProducts.h). The ops are built on the flat
// 1-D bytes, one vector op each, not one per lane's 4 bytes.

// CHECK-LABEL: func.func @lanes_8
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: vector<8x4xi8>, %[[X:[a-z0-9_]+]]: vector<8x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<8xi32>)
// CHECK-NOT:     vector.multi_reduction
// CHECK-DAG:     %[[LIMIT:.+]] = arith.constant dense<-127> : vector<32xi8>
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant dense<0> : vector<32xi8>
// CHECK-DAG:     %[[WB:.+]] = vector.shape_cast %[[W]] : vector<8x4xi8> to vector<32xi8>
// CHECK-DAG:     %[[XB:.+]] = vector.shape_cast %[[X]] : vector<8x4xi8> to vector<32xi8>
// CHECK-DAG:     %[[C:.+]] = arith.maxsi %[[XB]], %[[LIMIT]] : vector<32xi8>
// CHECK-DAG:     %[[NEG:.+]] = arith.cmpi slt, %[[WB]], %[[ZERO]] : vector<32xi8>
// CHECK-DAG:     %[[MINUSW:.+]] = arith.subi %[[ZERO]], %[[WB]] : vector<32xi8>
// CHECK-DAG:     %[[MAG:.+]] = arith.select %[[NEG]], %[[MINUSW]], %[[WB]] : vector<32xi1>, vector<32xi8>
// CHECK-DAG:     %[[MINUSC:.+]] = arith.subi %[[ZERO]], %[[C]] : vector<32xi8>
// CHECK-DAG:     %[[SIGNED:.+]] = arith.select %[[NEG]], %[[MINUSC]], %[[C]] : vector<32xi1>, vector<32xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"(%[[ACC]], %[[MAG]], %[[SIGNED]]) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// CHECK-NOT:     arith.muli
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[R]] : vector<8xi32>
func.func @lanes_8(%w: vector<8x4xi8>, %x: vector<8x4xi8>, %acc: vector<8xi32>) -> vector<8xi32> {
  %limit = arith.constant dense<-127> : vector<8x4xi8>
  %c = arith.maxsi %x, %limit : vector<8x4xi8>
  %we = arith.extsi %w : vector<8x4xi8> to vector<8x4xi32>
  %ce = arith.extsi %c : vector<8x4xi8> to vector<8x4xi32>
  %p = arith.muli %we, %ce : vector<8x4xi32>
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

// Unsigned weights with their sign bit flipped (w - 128, the factorings'
// form for them): the xor on the flat bytes, once, not per lane.

// CHECK-LABEL: func.func @flipped_weights
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: vector<8x4xi8>, %[[X:[a-z0-9_]+]]: vector<8x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<8xi32>)
// CHECK-DAG:     %[[FLIP:.+]] = arith.constant dense<-128> : vector<32xi8>
// CHECK-DAG:     %[[WB:.+]] = vector.shape_cast %[[W]] : vector<8x4xi8> to vector<32xi8>
// CHECK-DAG:     %[[SW:.+]] = arith.xori %[[WB]], %[[FLIP]] : vector<32xi8>
// CHECK-DAG:     %[[NEG:.+]] = arith.cmpi slt, %[[SW]], %{{.+}} : vector<32xi8>
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"
// CHECK-NOT:     vector<8x4xi8>
// CHECK:         return
func.func @flipped_weights(%w: vector<8x4xi8>, %x: vector<8x4xi8>, %acc: vector<8xi32>) -> vector<8xi32> {
  %limit = arith.constant dense<-127> : vector<8x4xi8>
  %flip = arith.constant dense<-128> : vector<8x4xi8>
  %sw = arith.xori %w, %flip : vector<8x4xi8>
  %c = arith.maxsi %x, %limit : vector<8x4xi8>
  %we = arith.extsi %sw : vector<8x4xi8> to vector<8x4xi32>
  %ce = arith.extsi %c : vector<8x4xi8> to vector<8x4xi32>
  %p = arith.muli %ce, %we : vector<8x4xi32>
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

// A clamp at -128 bounds nothing: c with w's sign could be 128, which no
// signed byte holds (-(-128) wraps). Left alone.

// CHECK-LABEL: func.func @clamp_at_minus_128
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction
func.func @clamp_at_minus_128(%w: vector<8x4xi8>, %x: vector<8x4xi8>, %acc: vector<8xi32>) -> vector<8xi32> {
  %limit = arith.constant dense<-128> : vector<8x4xi8>
  %c = arith.maxsi %x, %limit : vector<8x4xi8>
  %we = arith.extsi %w : vector<8x4xi8> to vector<8x4xi32>
  %ce = arith.extsi %c : vector<8x4xi8> to vector<8x4xi32>
  %p = arith.muli %we, %ce : vector<8x4xi32>
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

// Two signed bytes without a clamp: -128 · -128 pairs overflow a signed
// 16-bit sum and neither operand is a magnitude; left alone (a user's
// int8 x int8 product keeps its generic lowering).

// CHECK-LABEL: func.func @unclamped
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         vector.multi_reduction
func.func @unclamped(%w: vector<8x4xi8>, %x: vector<8x4xi8>, %acc: vector<8xi32>) -> vector<8xi32> {
  %we = arith.extsi %w : vector<8x4xi8> to vector<8x4xi32>
  %xe = arith.extsi %x : vector<8x4xi8> to vector<8x4xi32>
  %p = arith.muli %we, %xe : vector<8x4xi32>
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

// The packed strategies' form: 4 activation bytes shared by 16 rows,
// extended as [1, 1, 4] and broadcast along the lanes of a [1, 16, 4]
// product. The clamp and the sign act on the bytes broadcast to every lane
// -- as one i32 word of vector<4xi8> broadcast to 16 lanes -- on 512
// bits.

// CHECK-LABEL: func.func @shared_activation
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: vector<1x16x4xi8>, %[[X:[a-z0-9_]+]]: vector<1x1x4xi8>, %[[ACC:[a-z0-9_]+]]: vector<1x16xi32>)
// CHECK-DAG:     %[[X4:.+]] = vector.shape_cast %[[X]] : vector<1x1x4xi8> to vector<4xi8>
// CHECK-DAG:     %[[XW:.+]] = vector.bitcast %[[X4]] : vector<4xi8> to vector<1xi32>
// CHECK-DAG:     %[[XL:.+]] = vector.broadcast %[[XW]] : vector<1xi32> to vector<16xi32>
// CHECK-DAG:     %[[XB:.+]] = vector.bitcast %[[XL]] : vector<16xi32> to vector<64xi8>
// CHECK-DAG:     %[[C:.+]] = arith.maxsi %[[XB]], %{{.+}} : vector<64xi8>
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %{{.+}}, %{{.+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK-NOT:     vector.multi_reduction
func.func @shared_activation(%w: vector<1x16x4xi8>, %x: vector<1x1x4xi8>, %acc: vector<1x16xi32>) -> vector<1x16xi32> {
  %limit = arith.constant dense<-127> : vector<1x1x4xi8>
  %c = arith.maxsi %x, %limit : vector<1x1x4xi8>
  %ce = arith.extsi %c : vector<1x1x4xi8> to vector<1x1x4xi32>
  %cb = vector.broadcast %ce : vector<1x1x4xi32> to vector<1x16x4xi32>
  %we = arith.extsi %w : vector<1x16x4xi8> to vector<1x16x4xi32>
  %p = arith.muli %we, %cb : vector<1x16x4xi32>
  %r = vector.multi_reduction <add>, %p, %acc [2] : vector<1x16x4xi32> to vector<1x16xi32>
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
