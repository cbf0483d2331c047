// RUN: qforge-opt %s --transform-interpreter | FileCheck %s

// Tests for transform.apply_patterns.qforge.read_past_disjoint_writes
// (lib/Patterns/ReadPastDisjointWrites.cpp): tensor transfer reads skip
// writes of other elements, take a splat's value, and a read of several rows
// (or of pieces of rows) that writes produced is split into one read per row
// (per piece).

// Row 1 is read after a write of row 0 only: the read is of the tensor
// before it, and the write, now unused, goes.

// CHECK-LABEL: func.func @past_other_row
// CHECK-SAME:    (%[[T:.+]]: tensor<2x64xf32>, %[[V:.+]]: vector<64xf32>)
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[R:.+]] = vector.transfer_read %[[T]][%c1, %c0]
// CHECK:         return %[[R]]
func.func @past_other_row(%t: tensor<2x64xf32>, %v: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<2x64xf32>
  %r = vector.transfer_read %w[%c1, %c0], %pad {in_bounds = [true]} : tensor<2x64xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// Same elements along the row, 64 lanes apart in the vector dim: disjoint.

// CHECK-LABEL: func.func @past_other_lanes
// CHECK-SAME:    (%[[T:.+]]: tensor<128xf32>, %[[V:.+]]: vector<64xf32>)
// CHECK:         %[[R:.+]] = vector.transfer_read %[[T]][%c64]
// CHECK:         return %[[R]]
func.func @past_other_lanes(%t: tensor<128xf32>, %v: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0] {in_bounds = [true]} : vector<64xf32>, tensor<128xf32>
  %r = vector.transfer_read %w[%c64], %pad {in_bounds = [true]} : tensor<128xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// Overlapping lanes (32 apart, 64 wide): the read must see the write.

// CHECK-LABEL: func.func @overlapping_lanes
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         vector.transfer_read %[[W]][%c32]
func.func @overlapping_lanes(%t: tensor<128xf32>, %v: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0] {in_bounds = [true]} : vector<64xf32>, tensor<128xf32>
  %r = vector.transfer_read %w[%c32], %pad {in_bounds = [true]} : tensor<128xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// A dynamic row index may be the written row: nothing to skip.

// CHECK-LABEL: func.func @dynamic_row
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         vector.transfer_read %[[W]][%{{.+}}, %c0]
func.func @dynamic_row(%t: tensor<2x64xf32>, %v: vector<64xf32>, %i: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<2x64xf32>
  %r = vector.transfer_read %w[%i, %c0], %pad {in_bounds = [true]} : tensor<2x64xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// Four tiles' accumulators after unrolling: the write of row 1 is read for
// rows 2 and 3 and written on for row 2. On a static shape every reader
// skips it (the writes then chain on the tensor alone): rows 2 and 3 are
// read from the original tensor.

// CHECK-LABEL: func.func @write_read_by_two_static
// CHECK-SAME:    (%[[T:.+]]: tensor<4x64xf32>
// CHECK-DAG:     %[[R2:.+]] = vector.transfer_read %[[T]][%c2, %c0]
// CHECK-DAG:     %[[R3:.+]] = vector.transfer_read %[[T]][%c3, %c0]
// CHECK:         return %[[R2]], %[[R3]]
func.func @write_read_by_two_static(%t: tensor<4x64xf32>, %a: vector<64xf32>, %b: vector<64xf32>, %c: vector<64xf32>)
    -> (vector<64xf32>, vector<64xf32>, tensor<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %w0 = vector.transfer_write %a, %t[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<4x64xf32>
  %w1 = vector.transfer_write %b, %w0[%c1, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<4x64xf32>
  %r2 = vector.transfer_read %w1[%c2, %c0], %pad {in_bounds = [true]} : tensor<4x64xf32>, vector<64xf32>
  %r3 = vector.transfer_read %w1[%c3, %c0], %pad {in_bounds = [true]} : tensor<4x64xf32>, vector<64xf32>
  %w2 = vector.transfer_write %c, %w1[%c2, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<4x64xf32>
  return %r2, %r3, %w2 : vector<64xf32>, vector<64xf32>, tensor<4x64xf32>
}

// The same on a dynamic shape: the reads skip the writes too, and move
// above the first write they skip, so that bufferization sees the tensor
// read before it is written (a partial last tile, where hoisting fails,
// keeps the writes; the reads then need no copy of the tensor).

// CHECK-LABEL: func.func @write_read_by_two_dynamic
// CHECK-SAME:    (%[[T:.+]]: tensor<?x64xf32>
// CHECK-DAG:     %[[R2:.+]] = vector.transfer_read %[[T]][%c2, %c0]
// CHECK-DAG:     %[[R3:.+]] = vector.transfer_read %[[T]][%c3, %c0]
// CHECK:         %[[W0:.+]] = vector.transfer_write %{{.+}}, %[[T]][%c0, %c0]
// CHECK:         %[[W1:.+]] = vector.transfer_write %{{.+}}, %[[W0]][%c1, %c0]
// CHECK:         %[[W2:.+]] = vector.transfer_write %{{.+}}, %[[W1]][%c2, %c0]
// CHECK:         return %[[R2]], %[[R3]], %[[W2]]
func.func @write_read_by_two_dynamic(%t: tensor<?x64xf32>, %a: vector<64xf32>, %b: vector<64xf32>, %c: vector<64xf32>)
    -> (vector<64xf32>, vector<64xf32>, tensor<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %w0 = vector.transfer_write %a, %t[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<?x64xf32>
  %w1 = vector.transfer_write %b, %w0[%c1, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<?x64xf32>
  %r2 = vector.transfer_read %w1[%c2, %c0], %pad {in_bounds = [true]} : tensor<?x64xf32>, vector<64xf32>
  %r3 = vector.transfer_read %w1[%c3, %c0], %pad {in_bounds = [true]} : tensor<?x64xf32>, vector<64xf32>
  %w2 = vector.transfer_write %c, %w1[%c2, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<?x64xf32>
  return %r2, %r3, %w2 : vector<64xf32>, vector<64xf32>, tensor<?x64xf32>
}

// A write whose result is also used elsewhere stays, and the read moves
// above it, reading the tensor before it.

// CHECK-LABEL: func.func @write_also_returned
// CHECK-SAME:    (%[[T:.+]]: tensor<2x64xf32>
// CHECK:         %[[R:.+]] = vector.transfer_read %[[T]][%c1, %c0]
// CHECK-NEXT:    %[[W:.+]] = vector.transfer_write
// CHECK:         return %[[R]], %[[W]]
func.func @write_also_returned(%t: tensor<2x64xf32>, %v: vector<64xf32>) -> (vector<64xf32>, tensor<2x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<2x64xf32>
  %r = vector.transfer_read %w[%c1, %c0], %pad {in_bounds = [true]} : tensor<2x64xf32>, vector<64xf32>
  return %r, %w : vector<64xf32>, tensor<2x64xf32>
}

// The read's row is computed after the write: it cannot move above the
// write, so it stays on the write's result.

// CHECK-LABEL: func.func @index_after_write
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         %[[I:.+]] = arith.addi
// CHECK:         vector.transfer_read %[[W]][%[[I]], %c0]
func.func @index_after_write(%t: tensor<8x64xf32>, %v: vector<64xf32>, %i: index) -> (vector<64xf32>, tensor<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%i, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<8x64xf32>
  %c1 = arith.constant 1 : index
  %next = arith.addi %i, %c1 : index
  %r = vector.transfer_read %w[%next, %c0], %pad {in_bounds = [true]} : tensor<8x64xf32>, vector<64xf32>
  return %r, %w : vector<64xf32>, tensor<8x64xf32>
}

// A read of row 1 skips the write of row 2 but never the write of row 1
// itself: it reads what that write wrote (upstream folding then forwards
// the written vector), not the tensor before it.

// CHECK-LABEL: func.func @same_row_static
// CHECK-SAME:    (%[[T:.+]]: tensor<4x64xf32>, %[[A:.+]]: vector<64xf32>, %[[B:.+]]: vector<64xf32>)
// CHECK-NOT:     vector.transfer_read %[[T]]
// CHECK:         return %[[A]], %{{.+}} : vector<64xf32>, tensor<4x64xf32>
func.func @same_row_static(%t: tensor<4x64xf32>, %a: vector<64xf32>, %b: vector<64xf32>) -> (vector<64xf32>, tensor<4x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0.0 : f32
  %w1 = vector.transfer_write %a, %t[%c1, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<4x64xf32>
  %w2 = vector.transfer_write %b, %w1[%c2, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<4x64xf32>
  %r = vector.transfer_read %w2[%c1, %c0], %pad {in_bounds = [true]} : tensor<4x64xf32>, vector<64xf32>
  return %r, %w2 : vector<64xf32>, tensor<4x64xf32>
}

// One row out of a zero fill of two rows is zero.

// CHECK-LABEL: func.func @row_of_splat_fill
// CHECK-NOT:     vector.transfer
// CHECK:         %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK:         return %[[Z]]
func.func @row_of_splat_fill(%t: tensor<2x64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<2x64xf32>
  %w = vector.transfer_write %zeros, %t[%c0, %c0] {in_bounds = [true, true]} : vector<2x64xf32>, tensor<2x64xf32>
  %r = vector.transfer_read %w[%c1, %c0], %pad {in_bounds = [true]} : tensor<2x64xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// A read reaching past the fill (lanes 32..95 of a fill of 0..63) is not
// the splat.

// CHECK-LABEL: func.func @beyond_splat_fill
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         vector.transfer_read %[[W]][%c32]
func.func @beyond_splat_fill(%t: tensor<128xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<64xf32>
  %w = vector.transfer_write %zeros, %t[%c0] {in_bounds = [true]} : vector<64xf32>, tensor<128xf32>
  %r = vector.transfer_read %w[%c32], %pad {in_bounds = [true]} : tensor<128xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// Two tiles' sums written over a zero fill and read back as one 2x64
// vector (the packed decode's group epilogue): split by row, each row is
// the value written, and neither the fill nor the tensor is left.

// CHECK-LABEL: func.func @two_rows_written
// CHECK-SAME:    (%[[T:.+]]: tensor<2x64xf32>, %[[A:.+]]: vector<64xf32>, %[[B:.+]]: vector<64xf32>)
// CHECK-NOT:     vector.transfer_read
// CHECK-NOT:     vector.transfer_write
// CHECK-DAG:     %[[AS:.+]]:64 = vector.to_elements %[[A]]
// CHECK-DAG:     %[[BS:.+]]:64 = vector.to_elements %[[B]]
// CHECK-NOT:     vector.transfer_read
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[ROWS:.+]] = vector.from_elements %[[AS]]#0, {{.*}}, %[[AS]]#63, %[[BS]]#0, {{.*}}, %[[BS]]#63 : vector<2x64xf32>
// CHECK-NEXT:    return %[[ROWS]]
func.func @two_rows_written(%t: tensor<2x64xf32>, %a: vector<64xf32>, %b: vector<64xf32>) -> vector<2x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<2x64xf32>
  %fill = vector.transfer_write %zeros, %t[%c0, %c0] {in_bounds = [true, true]} : vector<2x64xf32>, tensor<2x64xf32>
  %w0 = vector.transfer_write %a, %fill[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<2x64xf32>
  %w1 = vector.transfer_write %b, %w0[%c1, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<2x64xf32>
  %r = vector.transfer_read %w1[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<2x64xf32>, vector<2x64xf32>
  return %r : vector<2x64xf32>
}

// Bounded dynamic indices: rows %i and %i + 1 are disjoint whatever %i.

// CHECK-LABEL: func.func @past_next_dynamic_row
// CHECK-SAME:    (%[[T:.+]]: tensor<8x64xf32>, %{{.+}}: vector<64xf32>, %[[I:.+]]: index)
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[R:.+]] = vector.transfer_read %[[T]][%[[I]], %c0]
// CHECK:         return %[[R]]
func.func @past_next_dynamic_row(%t: tensor<8x64xf32>, %v: vector<64xf32>, %i: index) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %next = arith.addi %i, %c1 : index
  %w = vector.transfer_write %v, %t[%next, %c0] {in_bounds = [true]} : vector<64xf32>, tensor<8x64xf32>
  %r = vector.transfer_read %w[%i, %c0], %pad {in_bounds = [true]} : tensor<8x64xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// A read inside vector.mask: its masked-off lanes are the padding (7.0),
// not the splat, so it is not folded to the splat. (Lanes 16..47 of the
// fill: upstream folding, which ignores the mask, only forwards a read of
// exactly the written elements.)

// CHECK-LABEL: func.func @masked_read_of_splat_fill
// CHECK:         vector.mask %{{.+}} { vector.transfer_read
func.func @masked_read_of_splat_fill(%t: tensor<64xf32>, %m: vector<32xi1>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 7.0 : f32
  %zeros = arith.constant dense<0.0> : vector<64xf32>
  %w = vector.transfer_write %zeros, %t[%c0] {in_bounds = [true]} : vector<64xf32>, tensor<64xf32>
  %r = vector.mask %m { vector.transfer_read %w[%c16], %pad {in_bounds = [true]} : tensor<64xf32>, vector<32xf32> } : vector<32xi1> -> vector<32xf32>
  return %r : vector<32xf32>
}

// A read that may run out of bounds (in_bounds = [false]) gets the padding
// there, not the splat.

// CHECK-LABEL: func.func @out_of_bounds_read_of_splat_fill
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         vector.transfer_read %[[W]]
func.func @out_of_bounds_read_of_splat_fill(%t: tensor<?xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 7.0 : f32
  %zeros = arith.constant dense<0.0> : vector<64xf32>
  %w = vector.transfer_write %zeros, %t[%c0] : vector<64xf32>, tensor<?xf32>
  %r = vector.transfer_read %w[%c0], %pad : tensor<?xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

// A scalable read covers vscale x 4 lanes: its extent is unknown, so it is
// neither the splat of an 8-lane fill nor known disjoint from anything.

// CHECK-LABEL: func.func @scalable_read_of_splat_fill
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         vector.transfer_read %[[W]]
func.func @scalable_read_of_splat_fill(%t: tensor<64xf32>) -> vector<[4]xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<8xf32>
  %w = vector.transfer_write %zeros, %t[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<64xf32>
  %r = vector.transfer_read %w[%c0], %pad {in_bounds = [true]} : tensor<64xf32>, vector<[4]xf32>
  return %r : vector<[4]xf32>
}

// A transposed read covers another box than its vector shape says at its
// indices: left alone.

// CHECK-LABEL: func.func @transposed_read
// CHECK:         %[[W:.+]] = vector.transfer_write
// CHECK:         vector.transfer_read %[[W]]
func.func @transposed_read(%t: tensor<4x4xf32>, %v: vector<1x4xf32>) -> vector<4x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, tensor<4x4xf32>
  %r = vector.transfer_read %w[%c0, %c1], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : tensor<4x4xf32>, vector<4x1xf32>
  return %r : vector<4x1xf32>
}

// A two-row read through a write of other shapes: no row could be
// forwarded, so the read is not split.

// CHECK-LABEL: func.func @no_rows_written
// CHECK:         vector.transfer_read %{{.+}} : tensor<4x64xf32>, vector<2x64xf32>
func.func @no_rows_written(%t: tensor<4x64xf32>, %v: vector<16xf32>) -> vector<2x64xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c3, %c0] {in_bounds = [true]} : vector<16xf32>, tensor<4x64xf32>
  %r = vector.transfer_read %w[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x64xf32>, vector<2x64xf32>
  return %r : vector<2x64xf32>
}

// The integer prefill's group epilogue: sums written 16 lanes at a time
// over a zero fill and read back as one 2 x 32 vector. Split into the
// written pieces, each is the value written: no read, no write, so no
// buffer for the sums is left.

// CHECK-LABEL: func.func @half_rows_written
// CHECK-SAME:    (%[[T:.+]]: tensor<1x2x32xi32>, %[[A:.+]]: vector<16xi32>, %[[B:.+]]: vector<16xi32>, %[[C:.+]]: vector<16xi32>, %[[D:.+]]: vector<16xi32>)
// CHECK-NOT:     vector.transfer_read
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[P0:.+]] = vector.insert_strided_slice %[[A]], %{{.+}} {offsets = [0, 0], strides = [1]} : vector<16xi32> into vector<2x32xi32>
// CHECK-NEXT:    %[[P1:.+]] = vector.insert_strided_slice %[[B]], %[[P0]] {offsets = [0, 16], strides = [1]}
// CHECK-NEXT:    %[[P2:.+]] = vector.insert_strided_slice %[[C]], %[[P1]] {offsets = [1, 0], strides = [1]}
// CHECK-NEXT:    %[[P3:.+]] = vector.insert_strided_slice %[[D]], %[[P2]] {offsets = [1, 16], strides = [1]}
// CHECK-NEXT:    return %[[P3]]
func.func @half_rows_written(%t: tensor<1x2x32xi32>, %a: vector<16xi32>, %b: vector<16xi32>,
                             %c: vector<16xi32>, %d: vector<16xi32>) -> vector<2x32xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0 : i32
  %zeros = arith.constant dense<0> : vector<2x32xi32>
  %fill = vector.transfer_write %zeros, %t[%c0, %c0, %c0] {in_bounds = [true, true]} : vector<2x32xi32>, tensor<1x2x32xi32>
  %w0 = vector.transfer_write %a, %fill[%c0, %c0, %c0] {in_bounds = [true]} : vector<16xi32>, tensor<1x2x32xi32>
  %w1 = vector.transfer_write %b, %w0[%c0, %c0, %c16] {in_bounds = [true]} : vector<16xi32>, tensor<1x2x32xi32>
  %w2 = vector.transfer_write %c, %w1[%c0, %c1, %c0] {in_bounds = [true]} : vector<16xi32>, tensor<1x2x32xi32>
  %w3 = vector.transfer_write %d, %w2[%c0, %c1, %c16] {in_bounds = [true]} : vector<16xi32>, tensor<1x2x32xi32>
  %r = vector.transfer_read %w3[%c0, %c0, %c0], %pad {in_bounds = [true, true]} : tensor<1x2x32xi32>, vector<2x32xi32>
  return %r : vector<2x32xi32>
}

// Three of the four pieces written: the fourth is the tensor's, so the
// read is not split.

// CHECK-LABEL: func.func @piece_not_written
// CHECK:         vector.transfer_read %{{.+}} : tensor<2x32xi32>, vector<2x32xi32>
func.func @piece_not_written(%t: tensor<2x32xi32>, %a: vector<16xi32>, %b: vector<16xi32>,
                             %c: vector<16xi32>) -> vector<2x32xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0 : i32
  %w0 = vector.transfer_write %a, %t[%c0, %c0] {in_bounds = [true]} : vector<16xi32>, tensor<2x32xi32>
  %w1 = vector.transfer_write %b, %w0[%c0, %c16] {in_bounds = [true]} : vector<16xi32>, tensor<2x32xi32>
  %w2 = vector.transfer_write %c, %w1[%c1, %c0] {in_bounds = [true]} : vector<16xi32>, tensor<2x32xi32>
  %r = vector.transfer_read %w2[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<2x32xi32>, vector<2x32xi32>
  return %r : vector<2x32xi32>
}

// Pieces of another outer index (the read is of row 1 of the leading dim,
// the writes of row 0): not the read's, nothing to split.

// CHECK-LABEL: func.func @pieces_of_another_row
// CHECK:         vector.transfer_read %{{.+}}[%c1, %c0], %{{.+}} : tensor<2x32xi32>, vector<32xi32>
func.func @pieces_of_another_row(%t: tensor<2x32xi32>, %a: vector<16xi32>, %b: vector<16xi32>) -> vector<32xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0 : i32
  %w0 = vector.transfer_write %a, %t[%c0, %c0] {in_bounds = [true]} : vector<16xi32>, tensor<2x32xi32>
  %w1 = vector.transfer_write %b, %w0[%c0, %c16] {in_bounds = [true]} : vector<16xi32>, tensor<2x32xi32>
  %r = vector.transfer_read %w1[%c1, %c0], %pad {in_bounds = [true]} : tensor<2x32xi32>, vector<32xi32>
  return %r : vector<32xi32>
}

// Reads of memrefs are left alone: memory may change between a write and
// a read for reasons the values do not show.

// CHECK-LABEL: func.func @memref_read
// CHECK:         vector.transfer_write
// CHECK:         vector.transfer_read
func.func @memref_read(%m: memref<2x64xf32>, %v: vector<64xf32>) -> vector<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  vector.transfer_write %v, %m[%c0, %c0] {in_bounds = [true]} : vector<64xf32>, memref<2x64xf32>
  %r = vector.transfer_read %m[%c1, %c0], %pad {in_bounds = [true]} : memref<2x64xf32>, vector<64xf32>
  return %r : vector<64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.qforge.read_past_disjoint_writes
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
