// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.fold_int_to_float_casts
// (patterns/FoldIntToFloatCasts.pdll). Each split carries its own script that
// applies the set to every func.func of the payload.

// CHECK-LABEL: func.func @extui_uitofp_scalar
// CHECK-SAME:    (%[[W:.+]]: i8)
// CHECK-NOT:     arith.extui
// CHECK:         %[[F:.+]] = arith.uitofp %[[W]] : i8 to f32
// CHECK-NEXT:    return %[[F]] : f32
func.func @extui_uitofp_scalar(%w: i8) -> f32 {
  %w32 = arith.extui %w : i8 to i32
  %f = arith.uitofp %w32 : i32 to f32
  return %f : f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @extui_uitofp_vector
// CHECK-SAME:    (%[[W:.+]]: vector<16xi8>)
// CHECK-NOT:     arith.extui
// CHECK:         %[[F:.+]] = arith.uitofp %[[W]] : vector<16xi8> to vector<16xf32>
// CHECK-NEXT:    return %[[F]] : vector<16xf32>
func.func @extui_uitofp_vector(%w: vector<16xi8>) -> vector<16xf32> {
  %w32 = arith.extui %w : vector<16xi8> to vector<16xi32>
  %f = arith.uitofp %w32 : vector<16xi32> to vector<16xf32>
  return %f : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @extsi_sitofp
// CHECK-SAME:    (%[[W:.+]]: i8, %[[V:.+]]: vector<16xi4>)
// CHECK-NOT:     arith.extsi
// CHECK-DAG:     %[[F:.+]] = arith.sitofp %[[W]] : i8 to f32
// CHECK-DAG:     %[[VF:.+]] = arith.sitofp %[[V]] : vector<16xi4> to vector<16xf16>
// CHECK-NOT:     arith.extsi
// CHECK:         return %[[F]], %[[VF]] : f32, vector<16xf16>
func.func @extsi_sitofp(%w: i8, %v: vector<16xi4>) -> (f32, vector<16xf16>) {
  %w32 = arith.extsi %w : i8 to i32
  %f = arith.sitofp %w32 : i32 to f32
  %v8 = arith.extsi %v : vector<16xi4> to vector<16xi8>
  %vf = arith.sitofp %v8 : vector<16xi8> to vector<16xf16>
  return %f, %vf : f32, vector<16xf16>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}

// -----

// A zero-extended value is non-negative, so reading it as signed is reading
// the narrow value as unsigned: the result is a uitofp, not a sitofp.

// CHECK-LABEL: func.func @extui_sitofp
// CHECK-SAME:    (%[[W:.+]]: i8, %[[V:.+]]: vector<16xi8>)
// CHECK-NOT:     arith.extui
// CHECK-NOT:     arith.sitofp
// CHECK-DAG:     %[[F:.+]] = arith.uitofp %[[W]] : i8 to f32
// CHECK-DAG:     %[[VF:.+]] = arith.uitofp %[[V]] : vector<16xi8> to vector<16xf32>
// CHECK-NOT:     arith.sitofp
// CHECK:         return %[[F]], %[[VF]] : f32, vector<16xf32>
func.func @extui_sitofp(%w: i8, %v: vector<16xi8>) -> (f32, vector<16xf32>) {
  %w32 = arith.extui %w : i8 to i32
  %f = arith.sitofp %w32 : i32 to f32
  %v32 = arith.extui %v : vector<16xi8> to vector<16xi32>
  %vf = arith.sitofp %v32 : vector<16xi32> to vector<16xf32>
  return %f, %vf : f32, vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Not folded: a sign-extended negative value read as unsigned is a different
// number than the narrow value read as unsigned (extsi(-1 : i8) is 2^32 - 1
// as unsigned i32, uitofp(-1 : i8) is 255).

// CHECK-LABEL: func.func @extsi_uitofp_not_folded
// CHECK-SAME:    (%[[W:.+]]: i8, %[[V:.+]]: vector<16xi8>)
// CHECK:         %[[W32:.+]] = arith.extsi %[[W]] : i8 to i32
// CHECK-NEXT:    %[[F:.+]] = arith.uitofp %[[W32]] : i32 to f32
// CHECK-NEXT:    %[[V32:.+]] = arith.extsi %[[V]] : vector<16xi8> to vector<16xi32>
// CHECK-NEXT:    %[[VF:.+]] = arith.uitofp %[[V32]] : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:    return %[[F]], %[[VF]] : f32, vector<16xf32>
func.func @extsi_uitofp_not_folded(%w: i8, %v: vector<16xi8>) -> (f32, vector<16xf32>) {
  %w32 = arith.extsi %w : i8 to i32
  %f = arith.uitofp %w32 : i32 to f32
  %v32 = arith.extsi %v : vector<16xi8> to vector<16xi32>
  %vf = arith.uitofp %v32 : vector<16xi32> to vector<16xf32>
  return %f, %vf : f32, vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}

// -----

// The extension has another user: the cast is still folded, and the
// extension stays for that user (only the cast's operand changes).

// CHECK-LABEL: func.func @ext_with_other_use
// CHECK-SAME:    (%[[W:.+]]: vector<16xi8>, %[[S:.+]]: i8)
// CHECK:         %[[W32:.+]] = arith.extui %[[W]] : vector<16xi8> to vector<16xi32>
// CHECK-NEXT:    %[[F:.+]] = arith.uitofp %[[W]] : vector<16xi8> to vector<16xf32>
// CHECK-NEXT:    %[[S32:.+]] = arith.extsi %[[S]] : i8 to i32
// CHECK-NEXT:    %[[SF:.+]] = arith.sitofp %[[S]] : i8 to f32
// CHECK-NEXT:    %[[SUM:.+]] = arith.addi %[[S32]], %[[S32]] : i32
// CHECK-NEXT:    return %[[F]], %[[W32]], %[[SF]], %[[SUM]]
func.func @ext_with_other_use(%w: vector<16xi8>, %s: i8)
    -> (vector<16xf32>, vector<16xi32>, f32, i32) {
  %w32 = arith.extui %w : vector<16xi8> to vector<16xi32>
  %f = arith.uitofp %w32 : vector<16xi32> to vector<16xf32>
  %s32 = arith.extsi %s : i8 to i32
  %sf = arith.sitofp %s32 : i32 to f32
  %sum = arith.addi %s32, %s32 : i32
  return %f, %w32, %sf, %sum : vector<16xf32>, vector<16xi32>, f32, i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Inside a dequantization body (the shape the set is written for): the cast
// reads the linalg block argument directly.

// CHECK-LABEL: func.func @dequant_body
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[W:.+]]: i8, %[[SCALE:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[WF:.+]] = arith.uitofp %[[W]] : i8 to f32
// CHECK-NEXT:      %[[R:.+]] = arith.mulf %[[WF]], %[[SCALE]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK:         } -> tensor<8x4x16xf32>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @dequant_body(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>) -> tensor<8x4x16xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %0 = linalg.generic {indexing_maps = [#id, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x4x16xi8>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %r = arith.mulf %wf, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x4x16xf32>
  return %0 : tensor<8x4x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.fold_int_to_float_casts
    } : !transform.any_op
    transform.yield
  }
}
