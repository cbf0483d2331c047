// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.reassociate_fp_reductions
// (patterns/ReassociateFPReductions.pdll): `reassoc` is added to the fastmath
// flags of every floating-point vector.reduction in scope, and nothing else
// changes.

// CHECK-LABEL: func.func @add_f32
// CHECK-SAME:    (%[[V:[a-z0-9_]+]]: vector<16xf32>, %[[ACC:[a-z0-9_]+]]: f32)
// CHECK-NEXT:    %[[R0:.+]] = vector.reduction <add>, %[[V]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NEXT:    %[[R1:.+]] = vector.reduction <add>, %[[V]], %[[ACC]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NEXT:    return %[[R0]], %[[R1]] : f32, f32
func.func @add_f32(%v: vector<16xf32>, %acc: f32) -> (f32, f32) {
  %0 = vector.reduction <add>, %v : vector<16xf32> into f32
  %1 = vector.reduction <add>, %v, %acc : vector<16xf32> into f32
  return %0, %1 : f32, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Existing flags are kept: nnan becomes reassoc,nnan (printed in the enum's
// bit order), and flags without reassoc on an accumulating reduction too.

// CHECK-LABEL: func.func @keeps_flags
// CHECK-SAME:    (%[[V:[a-z0-9_]+]]: vector<16xf32>, %[[ACC:[a-z0-9_]+]]: f32)
// CHECK-NEXT:    vector.reduction <add>, %[[V]] fastmath<reassoc,nnan> : vector<16xf32> into f32
// CHECK-NEXT:    vector.reduction <add>, %[[V]], %[[ACC]] fastmath<reassoc,ninf,contract> : vector<16xf32> into f32
func.func @keeps_flags(%v: vector<16xf32>, %acc: f32) -> (f32, f32) {
  %0 = vector.reduction <add>, %v fastmath<nnan> : vector<16xf32> into f32
  %1 = vector.reduction <add>, %v, %acc fastmath<ninf,contract> : vector<16xf32> into f32
  return %0, %1 : f32, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Other kinds and float types: <mul> on f16 and <add> on f64 get reassoc
// too, and so does <maximumf> (the op's description covers every
// floating-point vector.reduction; its summary names only <add>/<mul>).

// CHECK-LABEL: func.func @other_kinds
// CHECK-NEXT:    vector.reduction <mul>, %{{.+}} fastmath<reassoc> : vector<8xf16> into f16
// CHECK-NEXT:    vector.reduction <add>, %{{.+}} fastmath<reassoc> : vector<8xf64> into f64
// CHECK-NEXT:    vector.reduction <maximumf>, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
func.func @other_kinds(%h: vector<8xf16>, %d: vector<8xf64>, %v: vector<16xf32>) -> (f16, f64, f32) {
  %0 = vector.reduction <mul>, %h : vector<8xf16> into f16
  %1 = vector.reduction <add>, %d : vector<8xf64> into f64
  %2 = vector.reduction <maximumf>, %v : vector<16xf32> into f32
  return %0, %1, %2 : f16, f64, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Unchanged: integer reductions (no fastmath flags to set), reductions that
// already allow reassociation (reassoc alone, or within fast), and a float
// reduction outside the scope the patterns are applied to.

// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:    vector.reduction <add>, %{{.+}} : vector<16xi32> into i32
// CHECK-NEXT:    vector.reduction <add>, %{{.+}}, %{{.+}} : vector<16xi32> into i32
// CHECK-NEXT:    vector.reduction <add>, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK-NEXT:    vector.reduction <mul>, %{{.+}} fastmath<reassoc,nnan> : vector<16xf32> into f32
// CHECK-NEXT:    vector.reduction <add>, %{{.+}} fastmath<fast> : vector<16xf32> into f32
// CHECK-NEXT:    return
func.func @unchanged(%i: vector<16xi32>, %iacc: i32, %v: vector<16xf32>) -> (i32, i32, f32, f32, f32) {
  %0 = vector.reduction <add>, %i : vector<16xi32> into i32
  %1 = vector.reduction <add>, %i, %iacc : vector<16xi32> into i32
  %2 = vector.reduction <add>, %v fastmath<reassoc> : vector<16xf32> into f32
  %3 = vector.reduction <mul>, %v fastmath<reassoc,nnan> : vector<16xf32> into f32
  %4 = vector.reduction <add>, %v fastmath<fast> : vector<16xf32> into f32
  return %0, %1, %2, %3, %4 : i32, i32, f32, f32, f32
}

// CHECK-LABEL: func.func @out_of_scope
// CHECK-NEXT:    vector.reduction <add>, %{{.+}} : vector<16xf32> into f32
// CHECK-NEXT:    return
func.func @out_of_scope(%v: vector<16xf32>) -> f32 {
  %0 = vector.reduction <add>, %v : vector<16xf32> into f32
  return %0 : f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes{sym_name = "unchanged"} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield
  }
}
