// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.transpose_as_shuffle
// (lib/Patterns/TransposeAsShuffle.cpp): a vector.transpose of at most 4096
// bits becomes one shuffle of the flattened vector, element i of the result
// taking the source element the permutation puts there -- or, where the
// permutation is a shuffle of each row (the source's first dim that is not
// unit) and a square transpose of 4-byte words, a shuffle per row, a
// butterfly of two-source shuffles of words and the rows joined.

// 2 x 3 x 2 -> 3 x 2 x 2: result (j, i, l) is source (i, j, l), i.e.
// 6 * i + 2 * j + l.
// CHECK-LABEL: func.func @three_dims
// CHECK-SAME:    (%[[V:.+]]: vector<2x3x2xf32>)
// CHECK:         %[[F:.+]] = vector.shape_cast %[[V]] : vector<2x3x2xf32> to vector<12xf32>
// CHECK:         %[[S:.+]] = vector.shuffle %[[F]], %[[F]] [0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11] : vector<12xf32>, vector<12xf32>
// CHECK:         %[[R:.+]] = vector.shape_cast %[[S]] : vector<12xf32> to vector<3x2x2xf32>
// CHECK-NOT:     vector.transpose
// CHECK:         return %[[R]]
func.func @three_dims(%v: vector<2x3x2xf32>) -> vector<3x2x2xf32> {
  %t = vector.transpose %v, [1, 0, 2] : vector<2x3x2xf32> to vector<3x2x2xf32>
  return %t : vector<3x2x2xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.transpose_as_shuffle
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The integer prefill's activation pack in small: 2 tokens x 2 k steps of
// 4 bytes to 2 k steps x 2 tokens, each 4-byte word moving whole: the rows
// as words (no row shuffle: each row's order is kept), one round of the
// butterfly, the two new rows joined.
// CHECK-LABEL: func.func @token_rows
// CHECK:         %[[ROWS:.+]] = vector.shape_cast %{{.+}} : vector<2x2x4xi8> to vector<2x8xi8>
// CHECK:         %[[R0:.+]] = vector.extract %[[ROWS]][0] : vector<8xi8> from vector<2x8xi8>
// CHECK:         %[[W0:.+]] = vector.bitcast %[[R0]] : vector<8xi8> to vector<2xi32>
// CHECK:         %[[R1:.+]] = vector.extract %[[ROWS]][1] : vector<8xi8> from vector<2x8xi8>
// CHECK:         %[[W1:.+]] = vector.bitcast %[[R1]] : vector<8xi8> to vector<2xi32>
// CHECK:         %[[C0:.+]] = vector.shuffle %[[W0]], %[[W1]] [0, 2] : vector<2xi32>, vector<2xi32>
// CHECK:         %[[C1:.+]] = vector.shuffle %[[W0]], %[[W1]] [1, 3] : vector<2xi32>, vector<2xi32>
// CHECK:         %[[B0:.+]] = vector.bitcast %[[C0]] : vector<2xi32> to vector<8xi8>
// CHECK:         %[[B1:.+]] = vector.bitcast %[[C1]] : vector<2xi32> to vector<8xi8>
// CHECK:         %[[J:.+]] = vector.shuffle %[[B0]], %[[B1]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
// CHECK:         vector.shape_cast %[[J]] : vector<16xi8> to vector<2x2x4xi8>
// CHECK-NOT:     vector.transpose
func.func @token_rows(%v: vector<2x2x4xi8>) -> vector<2x2x4xi8> {
  %t = vector.transpose %v, [1, 0, 2] : vector<2x2x4xi8> to vector<2x2x4xi8>
  return %t : vector<2x2x4xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.transpose_as_shuffle
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The 4-bit integer prefill's pack: 8 tokens x 4 k steps x 4 byte pairs
// (bytes of nibble pairs, split by nibble half h) to (step, h, token, 4
// bytes). Each row's bytes reordered from (step, byte, h) to (step, h,
// byte) by one shuffle, then 8 x 8 words transposed in 3 rounds of 8
// two-source shuffles, the 8 columns joined by 7 shuffles; the extract of
// the leading unit dims becomes a shape cast of the joined vector.
// CHECK-LABEL: func.func @nibble_pack
// CHECK:         vector.shape_cast %{{.+}} : vector<1x8x1x4x4x2xi8> to vector<8x32xi8>
// CHECK-COUNT-8: vector.shuffle %{{.+}}, %{{.+}} [0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15, 16, 18, 20, 22, 17, 19, 21, 23, 24, 26, 28, 30, 25, 27, 29, 31] : vector<32xi8>, vector<32xi8>
// CHECK-COUNT-4: vector.shuffle %{{.+}}, %{{.+}} [0, 8, 2, 10, 4, 12, 6, 14] : vector<8xi32>, vector<8xi32>
// CHECK-COUNT-4: vector.shuffle %{{.+}}, %{{.+}} [0, 1, 8, 9, 4, 5, 12, 13] : vector<8xi32>, vector<8xi32>
// CHECK-COUNT-4: vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xi32>, vector<8xi32>
// CHECK-COUNT-4: vector.shuffle {{.+}} : vector<32xi8>, vector<32xi8>
// CHECK-COUNT-2: vector.shuffle {{.+}} : vector<64xi8>, vector<64xi8>
// CHECK:         %[[ALL:.+]] = vector.shuffle {{.+}} : vector<128xi8>, vector<128xi8>
// CHECK:         %[[R:.+]] = vector.shape_cast %[[ALL]] : vector<256xi8> to vector<4x2x8x4xi8>
// CHECK-NOT:     vector.transpose
// CHECK-NOT:     vector.extract
// CHECK:         return %[[R]]
func.func @nibble_pack(%v: vector<1x8x1x4x4x2xi8>) -> vector<4x2x8x4xi8> {
  %t = vector.transpose %v, [0, 2, 3, 5, 1, 4] : vector<1x8x1x4x4x2xi8> to vector<1x1x4x2x8x4xi8>
  %e = vector.extract %t[0, 0] : vector<4x2x8x4xi8> from vector<1x1x4x2x8x4xi8>
  return %e : vector<4x2x8x4xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.transpose_as_shuffle
    } : !transform.any_op
    transform.yield
  }
}

// -----

// One shuffle of the flattened vector where the words do not transpose
// squarely (2 tokens x 4 words: 4 x 2 words), and where a word would take
// bytes of different tokens (the token dim innermost).
// CHECK-LABEL: func.func @not_square
// CHECK:         vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23, 8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31] : vector<32xi8>, vector<32xi8>
// CHECK:         vector.shuffle %{{.+}}, %{{.+}} [0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27, 4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31] : vector<32xi8>, vector<32xi8>
// CHECK-NOT:     vector.bitcast
// CHECK-NOT:     vector.transpose
func.func @not_square(%v: vector<2x4x4xi8>, %w: vector<4x2x4xi8>) -> (vector<4x2x4xi8>, vector<2x4x4xi8>) {
  %t = vector.transpose %v, [1, 0, 2] : vector<2x4x4xi8> to vector<4x2x4xi8>
  %u = vector.transpose %w, [1, 2, 0] : vector<4x2x4xi8> to vector<2x4x4xi8>
  return %t, %u : vector<4x2x4xi8>, vector<2x4x4xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.transpose_as_shuffle
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Left to the lowering: longer than 4096 bits (here 4 x 8 x 16 f32 = 16384),
// and 2-D (unit dims aside), whose lowering LLVM already turns into permutes.
// CHECK-LABEL: func.func @left_alone
// CHECK:         vector.transpose %{{.+}}, [1, 0, 2] : vector<4x8x16xf32> to vector<8x4x16xf32>
// CHECK:         vector.transpose %{{.+}}, [0, 2, 1] : vector<1x2x3xf32> to vector<1x3x2xf32>
// CHECK-NOT:     vector.shuffle
func.func @left_alone(%v: vector<4x8x16xf32>, %w: vector<1x2x3xf32>) -> (vector<8x4x16xf32>, vector<1x3x2xf32>) {
  %t = vector.transpose %v, [1, 0, 2] : vector<4x8x16xf32> to vector<8x4x16xf32>
  %u = vector.transpose %w, [0, 2, 1] : vector<1x2x3xf32> to vector<1x3x2xf32>
  return %t, %u : vector<8x4x16xf32>, vector<1x3x2xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.transpose_as_shuffle
    } : !transform.any_op
    transform.yield
  }
}
