// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.transpose_as_shuffle
// (lib/Patterns/TransposeAsShuffle.cpp): a vector.transpose of at most 4096
// bits becomes one shuffle of the flattened vector, element i of the result
// taking the source element the permutation puts there.

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
// 4 bytes to 2 k steps x 2 tokens, each 4-byte row moving whole.
// CHECK-LABEL: func.func @token_rows
// CHECK:         vector.shape_cast %{{.+}} : vector<2x2x4xi8> to vector<16xi8>
// CHECK:         vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15] : vector<16xi8>, vector<16xi8>
// CHECK:         vector.shape_cast %{{.+}} : vector<16xi8> to vector<2x2x4xi8>
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
