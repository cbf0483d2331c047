// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Tests for transform.qforge.unroll_dividing: an scf.for unrolled by the
// largest divisor of its trip count that is at most at_most -- whole when
// it has at most that many iterations (where transform.loop.unroll with
// that factor leaves them all in a rolled remainder loop), else with no
// remainder loop.

// 6 iterations, at_most = 8: unrolled whole (6 stores, no loop left).
// CHECK-LABEL: func.func @six_of_eight
// CHECK-NOT:     scf.for %
// CHECK-COUNT-6: memref.store
// CHECK-NOT:     scf.for %
// CHECK-NOT:     memref.store
// CHECK:         return
func.func @six_of_eight(%out: memref<6xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c6 step %c1 {
    memref.store %v, %out[%i] : memref<6xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.unroll_dividing %loop {at_most = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// 12 iterations, at_most = 8: by 6 (two iterations of 6 stores), not by 8
// with a remainder loop of 4.
// CHECK-LABEL: func.func @twelve_by_six
// CHECK:         %[[C6:.+]] = arith.constant 6 : index
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C6]]
// CHECK-COUNT-6:   memref.store
// CHECK-NOT:     scf.for %
// CHECK-NOT:     memref.store
// CHECK:         return
func.func @twelve_by_six(%out: memref<12xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %v, %out[%i] : memref<12xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.unroll_dividing %loop {at_most = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// A dynamic trip count: a silenceable failure naming the loop.
func.func @dynamic(%out: memref<?xf32>, %v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{payload op}}
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expected an scf.for with a constant trip count}}
    transform.qforge.unroll_dividing %loop {at_most = 8} : !transform.any_op
    transform.yield
  }
}

// -----

// at_most from a param (as a library sequence receives it): 12 iterations,
// at most 4: by 4, 3 iterations of 4 stores.
// CHECK-LABEL: func.func @twelve_by_param
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C4:.+]] {
// CHECK-COUNT-4:   memref.store
// CHECK-NOT:       memref.store
// CHECK:         }
func.func @twelve_by_param(%out: memref<12xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %v, %out[%i] : memref<12xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %at_most = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.qforge.unroll_dividing %loop at_most = %at_most : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

// A loop it cannot take does not stop the others: the dynamic loop first,
// its silenceable failure suppressed, then the 12 iterations unrolled by 4.
// CHECK-LABEL: func.func @one_fails
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT:      memref.store
// CHECK-NEXT:    }
// CHECK:         scf.for
// CHECK-COUNT-4:   memref.store
// CHECK-NOT:       memref.store
// CHECK:         return
func.func @one_fails(%out: memref<?xf32>, %v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %out[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @unroll(%loops: !transform.any_op {transform.consumed}) {
    transform.qforge.unroll_dividing %loops {at_most = 4} : !transform.any_op
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.include @unroll failures(suppress) (%loops) : (!transform.any_op) -> ()
    transform.yield
  }
}
