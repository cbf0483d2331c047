// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.x86_nibble_tables
// (patterns/X86NibbleTables.pdll, lib/Patterns/NibbleTables.cpp). Each split
// carries its own script that applies the set to every func.func of the
// payload.
//
// What makes the rewrite exact (and what the positive checks pin down):
// llvm.x86.avx512.permvar.sf.512(table, index) gives, in lane i,
// table[index[i] & 15] -- the data first, the index second. With the table
// [0.0, 1.0, ..., 15.0] that is float(index[i] & 15): for the index extui(b)
// the low nibble of b, for extui(b) >> 4 the high one -- the same values as
// uitofp(trunci(b)) and uitofp(trunci(b >> 4)). With [0, ..., 7, -8, ...,
// -1] it is sitofp of the nibble. Swapped operands would read the nibbles
// as the table.

// The low nibbles of 64 bytes: one widening, 4 lookups of 16 lanes.

// CHECK-LABEL: func.func @low_nibbles
// CHECK-SAME:    (%[[B:[a-z0-9_]+]]: vector<64xi8>)
// CHECK-DAG:     %[[TABLE:.+]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01]> : vector<16xf32>
// CHECK-DAG:     %[[INDEX:.+]] = arith.extui %[[B]] : vector<64xi8> to vector<64xi32>
// CHECK:         %[[I0:.+]] = vector.extract_strided_slice %[[INDEX]] {offsets = [0], sizes = [16], strides = [1]}
// CHECK:         %[[V0:.+]] = llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[I0]]) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
// CHECK:         %[[R0:.+]] = vector.insert_strided_slice %[[V0]], %{{.+}} {offsets = [0], strides = [1]} : vector<16xf32> into vector<64xf32>
// CHECK:         vector.extract_strided_slice %[[INDEX]] {offsets = [16], sizes = [16], strides = [1]}
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"
// CHECK:         vector.insert_strided_slice {{.*}} {offsets = [16], strides = [1]}
// CHECK:         vector.extract_strided_slice %[[INDEX]] {offsets = [32], sizes = [16], strides = [1]}
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"
// CHECK:         vector.insert_strided_slice {{.*}} {offsets = [32], strides = [1]}
// CHECK:         vector.extract_strided_slice %[[INDEX]] {offsets = [48], sizes = [16], strides = [1]}
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"
// CHECK:         %[[R:.+]] = vector.insert_strided_slice {{.*}} {offsets = [48], strides = [1]}
// CHECK-NOT:     arith.uitofp
// CHECK-NOT:     arith.trunci
// CHECK:         return %[[R]] : vector<64xf32>
func.func @low_nibbles(%b: vector<64xi8>) -> vector<64xf32> {
  %n = arith.trunci %b : vector<64xi8> to vector<64xi4>
  %w = arith.uitofp %n : vector<64xi4> to vector<64xf32>
  return %w : vector<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The high nibbles (the bytes shifted right by 4): the unshifted bytes are
// widened and the 32-bit lanes shifted, so that the low nibbles' widening
// can serve both. (One register: the slice and insert fold away.)

// CHECK-LABEL: func.func @high_nibbles
// CHECK-SAME:    (%[[B:[a-z0-9_]+]]: vector<16xi8>)
// CHECK-DAG:     %[[FOUR:.+]] = arith.constant dense<4> : vector<16xi32>
// CHECK-DAG:     %[[TABLE:.+]] = arith.constant dense<[0.000000e+00, {{.*}}, 1.500000e+01]> : vector<16xf32>
// CHECK:         %[[WIDE:.+]] = arith.extui %[[B]] : vector<16xi8> to vector<16xi32>
// CHECK:         %[[INDEX:.+]] = arith.shrui %[[WIDE]], %[[FOUR]] : vector<16xi32>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[INDEX]])
// CHECK-NOT:     arith.uitofp
// CHECK:         return %[[R]] : vector<16xf32>
func.func @high_nibbles(%b: vector<16xi8>) -> vector<16xf32> {
  %c4 = arith.constant dense<4> : vector<16xi8>
  %s = arith.shrui %b, %c4 : vector<16xi8>
  %n = arith.trunci %s : vector<16xi8> to vector<16xi4>
  %w = arith.uitofp %n : vector<16xi4> to vector<16xf32>
  return %w : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A shift by another amount is not a nibble of the byte: the shifted byte's
// low 4 bits are looked up, with no shift of the widened lanes.

// CHECK-LABEL: func.func @shift_by_two
// CHECK-SAME:    (%[[B:[a-z0-9_]+]]: vector<16xi8>)
// CHECK:         %[[S:.+]] = arith.shrui %[[B]], %{{.+}} : vector<16xi8>
// CHECK:         %[[INDEX:.+]] = arith.extui %[[S]] : vector<16xi8> to vector<16xi32>
// CHECK-NOT:     arith.shrui
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%{{.+}}, %[[INDEX]])
func.func @shift_by_two(%b: vector<16xi8>) -> vector<16xf32> {
  %c2 = arith.constant dense<2> : vector<16xi8>
  %s = arith.shrui %b, %c2 : vector<16xi8>
  %n = arith.trunci %s : vector<16xi8> to vector<16xi4>
  %w = arith.uitofp %n : vector<16xi4> to vector<16xf32>
  return %w : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A 2-D vector of 32 weights: flattened, looked up, shaped back.

// CHECK-LABEL: func.func @two_rows
// CHECK-SAME:    (%[[B:[a-z0-9_]+]]: vector<2x16xi8>)
// CHECK:         %[[FLAT:.+]] = vector.shape_cast %[[B]] : vector<2x16xi8> to vector<32xi8>
// CHECK:         arith.extui %[[FLAT]] : vector<32xi8> to vector<32xi32>
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"
// CHECK:         %[[R:.+]] = vector.shape_cast %{{.+}} : vector<32xf32> to vector<2x16xf32>
// CHECK:         return %[[R]] : vector<2x16xf32>
func.func @two_rows(%b: vector<2x16xi8>) -> vector<2x16xf32> {
  %n = arith.trunci %b : vector<2x16xi8> to vector<2x16xi4>
  %w = arith.uitofp %n : vector<2x16xi4> to vector<2x16xf32>
  return %w : vector<2x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Signed nibbles (sitofp: -8..7), high ones picked by an arithmetic shift
// (the truncation keeps bits 4-7 alike), over two registers: the table of
// the signed values, the widened bytes shifted before they are sliced.

// CHECK-LABEL: func.func @signed_high_nibbles
// CHECK-SAME:    (%[[B:[a-z0-9_]+]]: vector<2x16xi8>)
// CHECK-DAG:     %[[TABLE:.+]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, -8.000000e+00, -7.000000e+00, -6.000000e+00, -5.000000e+00, -4.000000e+00, -3.000000e+00, -2.000000e+00, -1.000000e+00]> : vector<16xf32>
// CHECK:         %[[FLAT:.+]] = vector.shape_cast %[[B]] : vector<2x16xi8> to vector<32xi8>
// CHECK:         %[[WIDE:.+]] = arith.extui %[[FLAT]] : vector<32xi8> to vector<32xi32>
// CHECK:         %[[INDEX:.+]] = arith.shrui %[[WIDE]], %{{.+}} : vector<32xi32>
// CHECK:         %[[I0:.+]] = vector.extract_strided_slice %[[INDEX]] {offsets = [0], sizes = [16], strides = [1]}
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[I0]])
// CHECK:         %[[I1:.+]] = vector.extract_strided_slice %[[INDEX]] {offsets = [16], sizes = [16], strides = [1]}
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.permvar.sf.512"(%[[TABLE]], %[[I1]])
// CHECK-NOT:     arith.sitofp
// CHECK:         vector.shape_cast %{{.+}} : vector<32xf32> to vector<2x16xf32>
func.func @signed_high_nibbles(%b: vector<2x16xi8>) -> vector<2x16xf32> {
  %c4 = arith.constant dense<4> : vector<2x16xi8>
  %s = arith.shrsi %b, %c4 : vector<2x16xi8>
  %n = arith.trunci %s : vector<2x16xi8> to vector<2x16xi4>
  %w = arith.sitofp %n : vector<2x16xi4> to vector<2x16xf32>
  return %w : vector<2x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Left alone: fewer than 16 lanes (no whole register), 24 lanes (not a
// whole number of registers), a scalable vector, a scalar, an f64 result, a
// 4-bit value not truncated from a byte, and a nibble that is not from a
// trunci.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     llvm.call_intrinsic
// CHECK-COUNT-6: arith.uitofp
// CHECK:         arith.sitofp
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         return
func.func @left_alone(%b8: vector<8xi8>, %b24: vector<24xi8>, %bs: vector<[16]xi8>, %s: i8, %b16: vector<16xi8>,
                      %h: vector<16xi16>, %n: vector<16xi4>)
    -> (vector<8xf32>, vector<24xf32>, vector<[16]xf32>, f32, vector<16xf64>, vector<16xf32>, vector<16xf32>) {
  %n8 = arith.trunci %b8 : vector<8xi8> to vector<8xi4>
  %w8 = arith.uitofp %n8 : vector<8xi4> to vector<8xf32>
  %n24 = arith.trunci %b24 : vector<24xi8> to vector<24xi4>
  %w24 = arith.uitofp %n24 : vector<24xi4> to vector<24xf32>
  %ns16 = arith.trunci %bs : vector<[16]xi8> to vector<[16]xi4>
  %ws16 = arith.uitofp %ns16 : vector<[16]xi4> to vector<[16]xf32>
  %ns = arith.trunci %s : i8 to i4
  %ws = arith.uitofp %ns : i4 to f32
  %n16 = arith.trunci %b16 : vector<16xi8> to vector<16xi4>
  %w64 = arith.uitofp %n16 : vector<16xi4> to vector<16xf64>
  %nh = arith.trunci %h : vector<16xi16> to vector<16xi4>
  %wh = arith.uitofp %nh : vector<16xi4> to vector<16xf32>
  %wn = arith.sitofp %n : vector<16xi4> to vector<16xf32>
  return %w8, %w24, %ws16, %ws, %w64, %wh, %wn
    : vector<8xf32>, vector<24xf32>, vector<[16]xf32>, f32, vector<16xf64>, vector<16xf32>, vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.x86_nibble_tables
    } : !transform.any_op
    transform.yield
  }
}
