// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.prefetch_reads_ahead. Each script finds the
// target loop by a unit attribute on it, so that the payload can hold other
// loops.

// One row of weights per iteration, read in three pieces at bytes 0, 16 and
// 64 of the row: the reads at 0 and 64 start a cache line (64 bytes) and are
// prefetched `iterations` rows ahead, clamped to the last row; the read at 16
// shares the line of the read at 0 and gets no prefetch of its own. The row
// to prefetch is computed once, at the top of the loop body, for both.

// CHECK-LABEL: func.func @row_reads
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x128xi8>, %[[LB:[a-z0-9_]+]]: index, %[[UB:[a-z0-9_]+]]: index, %[[STEP:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] = %[[LB]] to %[[UB]] step %[[STEP]]
// CHECK-NEXT:      %[[N:.+]] = arith.constant 2 : index
// CHECK-NEXT:      %[[DIST:.+]] = arith.muli %[[STEP]], %[[N]] : index
// CHECK-NEXT:      %[[AHEAD:.+]] = arith.addi %[[IV]], %[[DIST]] : index
// CHECK-NEXT:      %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LAST:.+]] = arith.subi %[[UB]], %[[ONE]] : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK-NEXT:      memref.prefetch %[[W]][%[[ROW]], %[[C0]]], read, locality<3>, data : memref<64x128xi8>
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %[[C0]]]
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %[[C16]]]
// CHECK-NEXT:      memref.prefetch %[[W]][%[[ROW]], %[[C64]]], read, locality<3>, data : memref<64x128xi8>
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %[[C64]]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @row_reads(%w: memref<64x128xi8>, %lb: index, %ub: index, %step: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<16xi8>
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %zero) -> vector<16xi8> {
    %a = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %b = vector.transfer_read %w[%iv, %c16], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %c = vector.transfer_read %w[%iv, %c64], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %s0 = arith.addi %a, %b : vector<16xi8>
    %s1 = arith.addi %s0, %c : vector<16xi8>
    %s2 = arith.addi %acc, %s1 : vector<16xi8>
    scf.yield %s2 : vector<16xi8>
  } {rows}
  return %r : vector<16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {iterations = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// line_bytes = 16: the three reads are 16 bytes apart or more, so each gets
// its own prefetch (defaults otherwise: one iteration ahead, locality 3).

// CHECK-LABEL: func.func @line_bytes_16
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x128xi8>
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK:           arith.constant 1 : index
// CHECK:           memref.prefetch %[[W]][%{{.+}}, %{{.+}}], read, locality<3>, data
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %{{.+}}]
// CHECK:           memref.prefetch %[[W]][%{{.+}}, %{{.+}}], read, locality<3>, data
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %{{.+}}]
// CHECK:           memref.prefetch %[[W]][%{{.+}}, %{{.+}}], read, locality<3>, data
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %{{.+}}]
func.func @line_bytes_16(%w: memref<64x128xi8>, %lb: index, %ub: index, %step: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<16xi8>
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %zero) -> vector<16xi8> {
    %a = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %b = vector.transfer_read %w[%iv, %c16], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %c = vector.transfer_read %w[%iv, %c64], %pad {in_bounds = [true]} : memref<64x128xi8>, vector<16xi8>
    %s0 = arith.addi %a, %b : vector<16xi8>
    %s1 = arith.addi %s0, %c : vector<16xi8>
    %s2 = arith.addi %acc, %s1 : vector<16xi8>
    scf.yield %s2 : vector<16xi8>
  } {rows}
  return %r : vector<16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {line_bytes = 16} : !transform.any_op
    transform.yield
  }
}

// -----

// f32 rows, static bounds, vector.load and memref.load: byte offsets count
// the element size (index 8 is byte 32: no prefetch; index 16 is byte 64:
// prefetch). A read at a row computed from the IV (iv + 1, as tiling
// produces with offsets) gets its index recomputed from the clamped next IV.
// locality = 0.

// CHECK-LABEL: func.func @f32_loads
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<32x64xf32>)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.+]] = arith.constant 32 : index
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] = %[[C0]] to %[[C32]] step %[[C4]]
// CHECK:           %[[AHEAD:.+]] = arith.addi %[[IV]], %{{.+}} : index
// CHECK:           %[[LAST:.+]] = arith.subi %[[C32]], %{{.+}} : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK-NEXT:      memref.prefetch %[[W]][%[[ROW]], %[[C0]]], read, locality<0>, data : memref<32x64xf32>
// CHECK-NEXT:      memref.load %[[W]][%[[IV]], %[[C0]]]
// CHECK-NEXT:      vector.load %[[W]][%[[IV]], %[[C8]]]
// CHECK-NEXT:      memref.prefetch %[[W]][%[[ROW]], %[[C16]]], read, locality<0>, data : memref<32x64xf32>
// CHECK-NEXT:      vector.load %[[W]][%[[IV]], %[[C16]]]
// CHECK-NEXT:      %[[PLUS_ONE:.+]] = arith.addi %[[IV]], %[[C1:.+]] : index
// CHECK-NEXT:      %[[AHEAD_PLUS_ONE:.+]] = arith.addi %[[ROW]], %[[C1]] : index
// CHECK-NEXT:      memref.prefetch %[[W]][%[[AHEAD_PLUS_ONE]], %[[C0]]], read, locality<0>, data : memref<32x64xf32>
// CHECK-NEXT:      vector.load %[[W]][%[[PLUS_ONE]], %[[C0]]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @f32_loads(%w: memref<32x64xf32>) -> (f32, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %f = arith.constant 0.0 : f32
  %v = arith.constant dense<0.0> : vector<8xf32>
  %r:4 = scf.for %iv = %c0 to %c32 step %c4 iter_args(%s = %f, %a = %v, %b = %v, %c = %v)
      -> (f32, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
    %e = memref.load %w[%iv, %c0] : memref<32x64xf32>
    %x = vector.load %w[%iv, %c8] : memref<32x64xf32>, vector<8xf32>
    %y = vector.load %w[%iv, %c16] : memref<32x64xf32>, vector<8xf32>
    %next = arith.addi %iv, %c1 : index
    %z = vector.load %w[%next, %c0] : memref<32x64xf32>, vector<8xf32>
    %s2 = arith.addf %s, %e : f32
    %a2 = arith.addf %a, %x : vector<8xf32>
    %b2 = arith.addf %b, %y : vector<8xf32>
    %c2 = arith.addf %c, %z : vector<8xf32>
    scf.yield %s2, %a2, %b2, %c2 : f32, vector<8xf32>, vector<8xf32>, vector<8xf32>
  } {rows}
  return %r#0, %r#1, %r#2, %r#3 : f32, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {locality = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// Nested loops: the target is the outer (row) loop; the read sits in the
// inner loop over the row and is indexed by both IVs. The prefetch goes
// next to the read, with the outer IV advanced (by the outer step, clamped
// to the outer bound: computed once per outer iteration, at the top of its
// body, not in the inner loop) and the inner IV kept. The inner loop alone, as a
// target, would prefetch along the row instead (not done here).

// CHECK-LABEL: func.func @nested
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x128xf32>, %[[UB:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         scf.for %[[I:[a-z0-9_]+]] = %[[C0]] to %[[UB]] step %[[C1]]
// CHECK-NOT:       memref.prefetch
// CHECK:           %[[DIST:.+]] = arith.muli %[[C1]], %{{.+}} : index
// CHECK-NEXT:      %[[AHEAD:.+]] = arith.addi %[[I]], %[[DIST]] : index
// CHECK:           %[[LAST:.+]] = arith.subi %[[UB]], %{{.+}} : index
// CHECK-NEXT:      %[[ROW:.+]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK-NEXT:      scf.for %[[K:[a-z0-9_]+]] =
// CHECK-NEXT:        memref.prefetch %[[W]][%[[ROW]], %[[K]]], read, locality<2>, data : memref<64x128xf32>
// CHECK-NEXT:        vector.load %[[W]][%[[I]], %[[K]]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @nested(%w: memref<64x128xf32>, %ub: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %zero) -> vector<16xf32> {
    %row = scf.for %k = %c0 to %c128 step %c16 iter_args(%racc = %acc) -> vector<16xf32> {
      %a = vector.load %w[%i, %k] : memref<64x128xf32>, vector<16xf32>
      %s = arith.addf %racc, %a : vector<16xf32>
      scf.yield %s : vector<16xf32>
    }
    scf.yield %row : vector<16xf32>
  } {rows}
  return %r : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {locality = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// The IV indexes the inner dim (column sweep over two rows): the constant
// row index contributes its byte offset (row 1 is byte 256 * 4 = 1024, a
// line start), the IV is replaced in place.

// CHECK-LABEL: func.func @iv_in_inner_dim
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<2x256xf32>)
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK:           %[[COL:.+]] = arith.minsi
// CHECK-NEXT:      memref.prefetch %[[W]][%[[C1]], %[[COL]]], read, locality<3>, data : memref<2x256xf32>
// CHECK-NEXT:      vector.load %[[W]][%[[C1]], %[[IV]]]
func.func @iv_in_inner_dim(%w: memref<2x256xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %iv = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> vector<16xf32> {
    %a = vector.load %w[%c1, %iv] : memref<2x256xf32>, vector<16xf32>
    %s = arith.addf %acc, %a : vector<16xf32>
    scf.yield %s : vector<16xf32>
  } {rows}
  return %r : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// Dynamic sizes and strides (memref<?x?xi8>): the read at [iv, 0] starts its
// row whatever the stride, and is prefetched like the static case.

// CHECK-LABEL: func.func @dynamic_strides
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<?x?xi8>, %[[UB:[a-z0-9_]+]]: index)
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK:           %[[ROW:.+]] = arith.minsi
// CHECK-NEXT:      memref.prefetch %[[W]][%[[ROW]], %[[C0]]], read, locality<3>, data : memref<?x?xi8>
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %[[C0]]]
func.func @dynamic_strides(%w: memref<?x?xi8>, %ub: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<16xi8>
  %r = scf.for %iv = %c0 to %ub step %c1 iter_args(%acc = %zero) -> vector<16xi8> {
    %a = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : memref<?x?xi8>, vector<16xi8>
    %s = arith.addi %acc, %a : vector<16xi8>
    scf.yield %s : vector<16xi8>
  } {rows}
  return %r : vector<16xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// A one-dimensional scf.forall (each thread runs its iterations in order):
// the next iteration's row is prefetched, clamped to the last one.

// CHECK-LABEL: func.func @forall_rows
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x128xi8>
// CHECK:         scf.forall (%[[I:.+]]) in (64)
// CHECK:           %[[AHEAD:.+]] = arith.addi %[[I]], %{{.+}} : index
// CHECK:           %[[NEXT:.+]] = arith.minsi %[[AHEAD]], %{{.+}} : index
// The payload's own constant, at the body's top, comes after the next row.
// CHECK-NEXT:      arith.constant 0 : index
// CHECK-NEXT:      memref.prefetch %[[W]][%[[NEXT]], %{{.+}}], read, locality<3>, data : memref<64x128xi8>
// CHECK-NEXT:      memref.load %[[W]][%[[I]], %{{.+}}]
func.func @forall_rows(%w: memref<64x128xi8>, %out: memref<64xi8>) {
  scf.forall (%i) in (64) {
    %c0 = arith.constant 0 : index
    %e = memref.load %w[%i, %c0] : memref<64x128xi8>
    memref.store %e, %out[%i] : memref<64xi8>
  } {rows}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.forall"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// into_parent_loop: the group loop inside a forall over row tiles. Before
// its last group, the next group of the same tile is prefetched; past the
// end, if the forall has a next iteration, the first group of the next
// tile, with the tile index recomputed from it. The groups run 0, 4, 8 (step
// 4, range 10): from 8, one step ahead is 12, i.e. 12 - ceildiv(10, 4) * 4
// = 0 into the next tile, not 12 - 10 = 2.

// CHECK-LABEL: func.func @into_parent_loop
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<8x12x64xi8>
// CHECK:         scf.forall (%[[T:.+]]) in (4)
// CHECK:           %[[TILE:.+]] = affine.apply #{{.+}}(%[[T]])
// CHECK:           scf.for %[[G:[a-z0-9_]+]] = %[[LB:.+]] to %[[UB:.+]] step %[[STEP:[a-z0-9_]+]]
// CHECK:             %[[AHEAD:.+]] = arith.addi %[[G]], %{{.+}} : index
// CHECK:             %[[LAST:.+]] = arith.subi %[[UB]], %{{.+}} : index
// CHECK:             %[[NEXT:.+]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK:             %[[RANGE:.+]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK:             %[[TRIPS:.+]] = arith.ceildivsi %[[RANGE]], %[[STEP]] : index
// CHECK:             %[[SPAN:.+]] = arith.muli %[[TRIPS]], %[[STEP]] : index
// CHECK:             %[[WRAP:.+]] = arith.subi %[[AHEAD]], %[[SPAN]] : index
// CHECK:             %[[WRAPPED:.+]] = arith.minsi %[[WRAP]], %[[LAST]] : index
// CHECK:             %[[TNEXT:.+]] = arith.addi %[[T]], %{{.+}} : index
// CHECK:             %[[BEYOND:.+]] = arith.cmpi sge, %[[AHEAD]], %[[UB]] : index
// CHECK:             %[[HASNEXT:.+]] = arith.cmpi slt, %[[TNEXT]], %{{.+}} : index
// CHECK:             %[[PAST:.+]] = arith.andi %[[BEYOND]], %[[HASNEXT]] : i1
// CHECK:             %[[GP:.+]] = arith.select %[[PAST]], %[[WRAPPED]], %[[NEXT]] : index
// CHECK:             %[[TP:.+]] = arith.select %[[PAST]], %[[TNEXT]], %[[T]] : index
// CHECK:             %[[TILEP:.+]] = affine.apply #{{.+}}(%[[TP]])
// CHECK:             memref.prefetch %[[W]][%[[TILEP]], %[[GP]], %{{.+}}], read, locality<3>, data : memref<8x12x64xi8>
// CHECK-NEXT:        vector.transfer_read %[[W]][%[[TILE]], %[[G]], %{{.+}}]
func.func @into_parent_loop(%w: memref<8x12x64xi8>, %out: memref<8x64xi8>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<64xi8>
  scf.forall (%t) in (4) {
    %tile = affine.apply affine_map<(d0) -> (d0 * 2)>(%t)
    %sum = scf.for %g = %c0 to %c10 step %c4 iter_args(%acc = %zero) -> vector<64xi8> {
      %line = vector.transfer_read %w[%tile, %g, %c0], %pad {in_bounds = [true]} : memref<8x12x64xi8>, vector<64xi8>
      %next = arith.addi %acc, %line : vector<64xi8>
      scf.yield %next : vector<64xi8>
    } {groups}
    vector.transfer_write %sum, %out[%tile, %c0] {in_bounds = [true]} : vector<64xi8>, memref<8x64xi8>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{groups} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {into_parent_loop} : !transform.any_op
    transform.yield
  }
}

// -----

// into_parent_loop on a loop that no loop encloses: no parent iteration to
// continue into, so the last iteration prefetches itself, as without it.

// CHECK-LABEL: func.func @into_no_parent_loop
// CHECK:         scf.for %[[G:[a-z0-9_]+]] = %{{.+}} to %[[UB:.+]] step
// CHECK:           %[[AHEAD:.+]] = arith.addi %[[G]], %{{.+}} : index
// CHECK:           %[[LAST:.+]] = arith.subi %[[UB]], %{{.+}} : index
// CHECK:           %[[NEXT:.+]] = arith.minsi %[[AHEAD]], %[[LAST]] : index
// CHECK-NOT:       arith.select
// CHECK:           memref.prefetch %{{.+}}[%{{.+}}, %[[NEXT]], %{{.+}}], read, locality<3>, data : memref<8x4x64xi8>
func.func @into_no_parent_loop(%w: memref<8x4x64xi8>, %out: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<64xi8>
  %sum = scf.for %g = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> vector<64xi8> {
    %line = vector.transfer_read %w[%c0, %g, %c0], %pad {in_bounds = [true]} : memref<8x4x64xi8>, vector<64xi8>
    %next = arith.addi %acc, %line : vector<64xi8>
    scf.yield %next : vector<64xi8>
  } {groups}
  vector.transfer_write %sum, %out[%c0] {in_bounds = [true]} : vector<64xi8>, memref<64xi8>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{groups} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {into_parent_loop} : !transform.any_op
    transform.yield
  }
}

// -----

// One index computed from the IV (the row, 2 x iv), read both in an inner
// loop and after it: each read's prefetch recomputes the row next to it --
// the one in the inner loop is not visible to the one after the loop.

// CHECK-LABEL: func.func @shared_index_two_levels
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x128xf32>, %[[S:[a-z0-9_]+]]: memref<64x16xf32>
// CHECK:         scf.for %[[I:[a-z0-9_]+]] =
// CHECK:           %[[NEXT:.+]] = arith.minsi
// CHECK:           scf.for %[[K:[a-z0-9_]+]] =
// CHECK-NEXT:        %[[ROW_IN:.+]] = affine.apply #{{.+}}(%[[NEXT]])
// CHECK-NEXT:        memref.prefetch %[[W]][%[[ROW_IN]], %[[K]]]
// CHECK:           }
// CHECK-NEXT:      %[[ROW_OUT:.+]] = affine.apply #{{.+}}(%[[NEXT]])
// CHECK-NEXT:      memref.prefetch %[[S]][%[[ROW_OUT]], %{{.+}}]
func.func @shared_index_two_levels(%w: memref<64x128xf32>, %s: memref<64x16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %r = scf.for %i = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> vector<16xf32> {
    %row = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %sum = scf.for %k = %c0 to %c128 step %c16 iter_args(%a = %acc) -> vector<16xf32> {
      %v = vector.load %w[%row, %k] : memref<64x128xf32>, vector<16xf32>
      %n = arith.addf %a, %v : vector<16xf32>
      scf.yield %n : vector<16xf32>
    }
    %scale = vector.load %s[%row, %c0] : memref<64x16xf32>, vector<16xf32>
    %m = arith.mulf %sum, %scale : vector<16xf32>
    scf.yield %m : vector<16xf32>
  } {rows}
  return %r : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// min_read_bytes = 64: the 64-byte weight line read gets a prefetch, the
// scalar activation read (4 bytes) in the same loop does not.

// CHECK-LABEL: func.func @min_read_bytes
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x64xi8>, %[[X:[a-z0-9_]+]]: memref<64xf32>
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK-NOT:       memref.prefetch %[[X]]
// CHECK:           memref.prefetch %[[W]][%{{.+}}, %{{.+}}], read, locality<3>, data
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %{{.+}}]
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.yield
func.func @min_read_bytes(%w: memref<64x64xi8>, %x: memref<64xf32>, %lb: index, %ub: index, %step: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i8
  %fpad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %zero) -> vector<64xf32> {
    %s = vector.transfer_read %x[%iv], %fpad {in_bounds = [true]} : memref<64xf32>, vector<1xf32>
    %w8 = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : memref<64x64xi8>, vector<64xi8>
    %wf = arith.uitofp %w8 : vector<64xi8> to vector<64xf32>
    %sb = vector.broadcast %s : vector<1xf32> to vector<64xf32>
    %p = arith.mulf %sb, %wf : vector<64xf32>
    %a = arith.addf %acc, %p : vector<64xf32>
    scf.yield %a : vector<64xf32>
  } {rows}
  return %r : vector<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {min_read_bytes = 64} : !transform.any_op
    transform.yield
  }
}

// -----

// The same with min_read_bytes = 64 as a param (a library sequence's
// argument): the same prefetches.

// CHECK-LABEL: func.func @min_read_bytes_param
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<64x64xi8>, %[[X:[a-z0-9_]+]]: memref<64xf32>
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK-NOT:       memref.prefetch %[[X]]
// CHECK:           memref.prefetch %[[W]][%{{.+}}, %{{.+}}], read, locality<3>, data
// CHECK-NEXT:      vector.transfer_read %[[W]][%[[IV]], %{{.+}}]
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.yield
func.func @min_read_bytes_param(%w: memref<64x64xi8>, %x: memref<64xf32>, %lb: index, %ub: index, %step: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i8
  %fpad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %zero) -> vector<64xf32> {
    %s = vector.transfer_read %x[%iv], %fpad {in_bounds = [true]} : memref<64xf32>, vector<1xf32>
    %w8 = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : memref<64x64xi8>, vector<64xi8>
    %wf = arith.uitofp %w8 : vector<64xi8> to vector<64xf32>
    %sb = vector.broadcast %s : vector<1xf32> to vector<64xf32>
    %p = arith.mulf %sb, %wf : vector<64xf32>
    %a = arith.addf %acc, %p : vector<64xf32>
    scf.yield %a : vector<64xf32>
  } {rows}
  return %r : vector<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    %bytes = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.qforge.prefetch_reads_ahead %loop min_read_bytes = %bytes {iterations = 1}
      : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

// An index-typed scalar read (no bit width): its size is unknown, so
// min_read_bytes keeps it -- prefetched, not a crash.

// CHECK-LABEL: func.func @index_elements
// CHECK-SAME:    (%[[T:[a-z0-9_]+]]: memref<64xindex>
// CHECK:         scf.for
// CHECK:           memref.prefetch %[[T]][%{{.+}}], read, locality<3>, data
// CHECK-NEXT:      memref.load %[[T]]
func.func @index_elements(%t: memref<64xindex>, %lb: index, %ub: index, %step: index) -> index {
  %c0 = arith.constant 0 : index
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %c0) -> index {
    %v = memref.load %t[%iv] : memref<64xindex>
    %a = arith.addi %acc, %v : index
    scf.yield %a : index
  } {rows}
  return %r : index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {min_read_bytes = 64} : !transform.any_op
    transform.yield
  }
}

// -----

// Index elements have no bit width, so a read's line offset from its
// constant indices is unknown: only the read at constant offset 0 is
// prefetched (it covers the row's line), the one at [iv, 2] is not.

// CHECK-LABEL: func.func @index_rows
// CHECK-SAME:    (%[[T:[a-z0-9_]+]]: memref<64x16xindex>
// CHECK:         scf.for
// CHECK:           memref.prefetch %[[T]][%{{.+}}, %{{.+}}], read, locality<3>, data
// CHECK-NEXT:      memref.load %[[T]]
// CHECK-NEXT:      memref.load %[[T]]
// CHECK-NOT:       memref.prefetch
func.func @index_rows(%t: memref<64x16xindex>, %lb: index, %ub: index, %step: index) -> index {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %c0) -> index {
    %a = memref.load %t[%iv, %c0] : memref<64x16xindex>
    %b = memref.load %t[%iv, %c2] : memref<64x16xindex>
    %s = arith.addi %a, %b : index
    %sum = arith.addi %acc, %s : index
    scf.yield %sum : index
  } {rows}
  return %r : index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// A read wider than a line (64 f32, 256 bytes: a packed tile's scales) gets
// one prefetch per line it covers, at +0, +16, +32 and +48 elements along
// its contiguous innermost dim.

// CHECK-LABEL: func.func @wide_read
// CHECK-SAME:    (%[[S:[a-z0-9_]+]]: memref<32x64xf32>
// CHECK:         scf.for
// CHECK:           %[[ROW:.+]] = arith.minsi
// CHECK-NEXT:      memref.prefetch %[[S]][%[[ROW]], %[[C0:.+]]], read, locality<3>, data
// CHECK-NEXT:      %[[C16:.+]] = arith.constant 16 : index
// CHECK-NEXT:      %[[I16:.+]] = arith.addi %[[C0]], %[[C16]] : index
// CHECK-NEXT:      memref.prefetch %[[S]][%[[ROW]], %[[I16]]], read, locality<3>, data
// CHECK-NEXT:      %[[C32:.+]] = arith.constant 32 : index
// CHECK-NEXT:      %[[I32:.+]] = arith.addi %[[C0]], %[[C32]] : index
// CHECK-NEXT:      memref.prefetch %[[S]][%[[ROW]], %[[I32]]], read, locality<3>, data
// CHECK-NEXT:      %[[C48:.+]] = arith.constant 48 : index
// CHECK-NEXT:      %[[I48:.+]] = arith.addi %[[C0]], %[[C48]] : index
// CHECK-NEXT:      memref.prefetch %[[S]][%[[ROW]], %[[I48]]], read, locality<3>, data
// CHECK-NEXT:      vector.transfer_read %[[S]]
// CHECK-NOT:       memref.prefetch
// CHECK:         return
func.func @wide_read(%s: memref<32x64xf32>, %lb: index, %ub: index, %step: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %f = arith.constant 0.0 : f32
  %v = arith.constant dense<0.0> : vector<64xf32>
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %v) -> vector<64xf32> {
    %x = vector.transfer_read %s[%iv, %c0], %f {in_bounds = [true]} : memref<32x64xf32>, vector<64xf32>
    %a = arith.addf %acc, %x : vector<64xf32>
    scf.yield %a : vector<64xf32>
  } {rows}
  return %r : vector<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// A 0-D vector read (one element) covers one line: one prefetch, no crash.

// CHECK-LABEL: func.func @zero_d_read
// CHECK:         scf.for
// CHECK:           memref.prefetch
// CHECK-NEXT:      vector.transfer_read
// CHECK-NOT:       memref.prefetch
func.func @zero_d_read(%s: memref<32x64xf32>, %lb: index, %ub: index, %step: index) -> vector<f32> {
  %c0 = arith.constant 0 : index
  %f = arith.constant 0.0 : f32
  %v = arith.constant dense<0.0> : vector<f32>
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %v) -> vector<f32> {
    %x = vector.transfer_read %s[%iv, %c0], %f : memref<32x64xf32>, vector<f32>
    %a = arith.addf %acc, %x : vector<f32>
    scf.yield %a : vector<f32>
  } {rows}
  return %r : vector<f32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop : !transform.any_op
    transform.yield
  }
}

// -----

// ahead_bytes = 4096: the weight tile of a group advances 2048 bytes per
// iteration (a 32-row tile of groups of 64), the scales 128 bytes, so the
// distance is two iterations -- the read that advances most decides.

// CHECK-LABEL: func.func @ahead_bytes_groups_of_64
// CHECK-SAME:    (%[[W:[a-z0-9_]+]]: memref<8x32x64xi8>, %[[S:[a-z0-9_]+]]: memref<8x32xf32>
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK-NEXT:      %[[N:.+]] = arith.constant 2 : index
// CHECK-NEXT:      arith.muli %{{.+}}, %[[N]] : index
// CHECK:           memref.prefetch %[[W]]
// CHECK:           memref.prefetch %[[S]]
func.func @ahead_bytes_groups_of_64(%w: memref<8x32x64xi8>, %s: memref<8x32xf32>) -> vector<64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i8
  %fpad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0> : vector<64xi8>
  %r = scf.for %g = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> vector<64xi8> {
    %line = vector.transfer_read %w[%g, %c0, %c0], %pad {in_bounds = [true]} : memref<8x32x64xi8>, vector<64xi8>
    %scales = vector.transfer_read %s[%g, %c0], %fpad {in_bounds = [true]} : memref<8x32xf32>, vector<32xf32>
    %i = vector.bitcast %scales : vector<32xf32> to vector<128xi8>
    %h = vector.extract_strided_slice %i {offsets = [0], sizes = [64], strides = [1]} : vector<128xi8> to vector<64xi8>
    %s0 = arith.addi %line, %h : vector<64xi8>
    %s1 = arith.addi %acc, %s0 : vector<64xi8>
    scf.yield %s1 : vector<64xi8>
  } {groups}
  return %r : vector<64xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{groups} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {ahead_bytes = 4096} : !transform.any_op
    transform.yield
  }
}

// -----

// The index as an affine.apply of the induction variable (2 rows of 1024
// bytes per iteration): 4096 bytes are 2 iterations; `iterations = 3` is a
// floor, so 3 stay.

// CHECK-LABEL: func.func @ahead_bytes_affine_index
// CHECK:         scf.for
// CHECK-NEXT:      %[[N:.+]] = arith.constant 2 : index
// CHECK-NEXT:      arith.muli %{{.+}}, %[[N]] : index
// CHECK-LABEL: func.func @ahead_bytes_floor
// CHECK:         scf.for
// CHECK-NEXT:      %[[N:.+]] = arith.constant 3 : index
// CHECK-NEXT:      arith.muli %{{.+}}, %[[N]] : index
func.func @ahead_bytes_affine_index(%w: memref<64x1024xi8>) -> vector<64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<64xi8>
  %r = scf.for %iv = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> vector<64xi8> {
    %row = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%iv)
    %a = vector.transfer_read %w[%row, %c0], %pad {in_bounds = [true]} : memref<64x1024xi8>, vector<64xi8>
    %s = arith.addi %acc, %a : vector<64xi8>
    scf.yield %s : vector<64xi8>
  } {two_rows}
  return %r : vector<64xi8>
}

func.func @ahead_bytes_floor(%w: memref<64x1024xi8>) -> vector<64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<64xi8>
  %r = scf.for %iv = %c0 to %c32 step %c1 iter_args(%acc = %zero) -> vector<64xi8> {
    %row = affine.apply affine_map<(d0) -> (d0 * 2)>(%iv)
    %a = vector.transfer_read %w[%row, %c0], %pad {in_bounds = [true]} : memref<64x1024xi8>, vector<64xi8>
    %s = arith.addi %acc, %a : vector<64xi8>
    scf.yield %s : vector<64xi8>
  } {floor}
  return %r : vector<64xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{two_rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {ahead_bytes = 4096} : !transform.any_op
    %floor = transform.structured.match ops{["scf.for"]} attributes{floor} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %floor {ahead_bytes = 4096, iterations = 3} : !transform.any_op
    transform.yield
  }
}

// -----

// A dynamic step: the advance per iteration is unknown, so ahead_bytes
// leaves `iterations` (1).

// CHECK-LABEL: func.func @ahead_bytes_dynamic_step
// CHECK:         scf.for
// CHECK-NEXT:      %[[N:.+]] = arith.constant 1 : index
// CHECK-NEXT:      arith.muli %{{.+}}, %[[N]] : index
func.func @ahead_bytes_dynamic_step(%w: memref<64x1024xi8>, %step: index) -> vector<64xi8> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<64xi8>
  %r = scf.for %iv = %c0 to %c64 step %step iter_args(%acc = %zero) -> vector<64xi8> {
    %a = vector.transfer_read %w[%iv, %c0], %pad {in_bounds = [true]} : memref<64x1024xi8>, vector<64xi8>
    %s = arith.addi %acc, %a : vector<64xi8>
    scf.yield %s : vector<64xi8>
  } {rows}
  return %r : vector<64xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {ahead_bytes = 4096} : !transform.any_op
    transform.yield
  }
}

// -----

// min_read_bytes counts what a read loads: a transfer_read's broadcast
// dims load nothing more (a scale read into 16 lanes is 4 bytes, not 64),
// and a memref of vectors supplies the trailing dims of the vector read (2
// x vector<4xf32> is 32 bytes). With 32: the 64-byte weight read and the
// 32-byte read of vectors are prefetched, the broadcast scale is not.

// CHECK-LABEL: func.func @bytes_read
// CHECK:         scf.for
// CHECK-DAG:       memref.prefetch %{{.+}} : memref<8x64xi8>
// CHECK-DAG:       memref.prefetch %{{.+}} : memref<8x4xvector<4xf32>>
// CHECK-NOT:       memref.prefetch
// CHECK:         } {rows}
func.func @bytes_read(%w: memref<8x64xi8>, %s: memref<8xf32>, %v: memref<8x4xvector<4xf32>>, %out: memref<8x64xi8>, %scaled: memref<8x16xf32>, %copy: memref<8x2x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i8
  %fpad = arith.constant 0.0 : f32
  %vpad = arith.constant dense<0.0> : vector<4xf32>
  scf.for %r = %c0 to %c8 step %c1 {
    %row = vector.transfer_read %w[%r, %c0], %pad {in_bounds = [true]} : memref<8x64xi8>, vector<64xi8>
    vector.transfer_write %row, %out[%r, %c0] {in_bounds = [true]} : vector<64xi8>, memref<8x64xi8>
    %scale = vector.transfer_read %s[%r], %fpad {in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>} : memref<8xf32>, vector<16xf32>
    vector.transfer_write %scale, %scaled[%r, %c0] {in_bounds = [true]} : vector<16xf32>, memref<8x16xf32>
    %vs = vector.transfer_read %v[%r, %c0], %vpad {in_bounds = [true]} : memref<8x4xvector<4xf32>>, vector<2x4xf32>
    vector.transfer_write %vs, %copy[%r, %c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x2x4xf32>
  } {rows}
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{rows} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loop {min_read_bytes = 32} : !transform.any_op
    transform.yield
  }
}

// -----

// Two targets, one inside the other (a long group's chunks, tagged like the
// groups, inside a group loop): only the outer one is prefetched; the inner
// one's prefetches would duplicate them.

// CHECK-LABEL: func.func @nested_targets
// CHECK:         scf.for %[[G:[a-z0-9_]+]] =
// CHECK:           %[[AHEAD:.+]] = arith.addi %[[G]], %{{.+}} : index
// CHECK:           %[[NEXT:.+]] = arith.minsi %[[AHEAD]], %{{.+}} : index
// CHECK:           scf.for %[[C:[a-z0-9_]+]] =
// CHECK-NEXT:        memref.prefetch %{{.+}}[%[[NEXT]], %[[C]], %{{.+}}]
// CHECK-NOT:         memref.prefetch
// CHECK:         return
func.func @nested_targets(%w: memref<8x4x64xi8>) -> vector<64xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<64xi8>
  %r = scf.for %g = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> vector<64xi8> {
    %s = scf.for %c = %c0 to %c4 step %c1 iter_args(%in = %acc) -> vector<64xi8> {
      %a = vector.transfer_read %w[%g, %c, %c0], %pad {in_bounds = [true]} : memref<8x4x64xi8>, vector<64xi8>
      %sum = arith.addi %in, %a : vector<64xi8>
      scf.yield %sum : vector<64xi8>
    } {groups}
    scf.yield %s : vector<64xi8>
  } {groups}
  return %r : vector<64xi8>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} attributes{groups} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.qforge.prefetch_reads_ahead %loops {iterations = 1} : !transform.any_op
    transform.yield
  }
}
