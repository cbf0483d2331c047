// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.split_accumulation_chains: a chain of vector
// adds (each link adds one term to the link before, whose result has no
// other use) becomes interleaved partial sums added by a tree.

// Eight links, four chains: the first link stays, terms 1-3 start partial
// sums 1-3, terms 4-7 are added round-robin (0 first), then ((0 + 1) + (2 + 3)). The flags
// of the last link are on every new add.
// CHECK-LABEL: func.func @eight_links
// CHECK-SAME:    (%[[ACC:.+]]: vector<16xf32>, %[[X:.+]]: vector<8x16xf32>, %[[W:.+]]: vector<8x16xf32>)
// CHECK-COUNT-8: arith.mulf
// CHECK:         %[[L0:.+]] = arith.addf %[[ACC]], %[[P0:.+]] fastmath<contract>
// CHECK-NEXT:    %[[S0:.+]] = arith.addf %[[L0]], %[[P4:.+]] fastmath<contract>
// CHECK-NEXT:    %[[S1:.+]] = arith.addf %[[P1:.+]], %[[P5:.+]] fastmath<contract>
// CHECK-NEXT:    %[[S2:.+]] = arith.addf %[[P2:.+]], %[[P6:.+]] fastmath<contract>
// CHECK-NEXT:    %[[S3:.+]] = arith.addf %[[P3:.+]], %[[P7:.+]] fastmath<contract>
// CHECK-NEXT:    %[[T01:.+]] = arith.addf %[[S0]], %[[S1]] fastmath<contract>
// CHECK-NEXT:    %[[T23:.+]] = arith.addf %[[S2]], %[[S3]] fastmath<contract>
// CHECK-NEXT:    %[[SUM:.+]] = arith.addf %[[T01]], %[[T23]] fastmath<contract>
// CHECK-NOT:     arith.addf
// CHECK:         return %[[SUM]]
func.func @eight_links(%acc: vector<16xf32>, %x: vector<8x16xf32>, %w: vector<8x16xf32>) -> vector<16xf32> {
  %x0 = vector.extract %x[0] : vector<16xf32> from vector<8x16xf32>
  %w0 = vector.extract %w[0] : vector<16xf32> from vector<8x16xf32>
  %p0 = arith.mulf %x0, %w0 : vector<16xf32>
  %x1 = vector.extract %x[1] : vector<16xf32> from vector<8x16xf32>
  %w1 = vector.extract %w[1] : vector<16xf32> from vector<8x16xf32>
  %p1 = arith.mulf %x1, %w1 : vector<16xf32>
  %x2 = vector.extract %x[2] : vector<16xf32> from vector<8x16xf32>
  %w2 = vector.extract %w[2] : vector<16xf32> from vector<8x16xf32>
  %p2 = arith.mulf %x2, %w2 : vector<16xf32>
  %x3 = vector.extract %x[3] : vector<16xf32> from vector<8x16xf32>
  %w3 = vector.extract %w[3] : vector<16xf32> from vector<8x16xf32>
  %p3 = arith.mulf %x3, %w3 : vector<16xf32>
  %x4 = vector.extract %x[4] : vector<16xf32> from vector<8x16xf32>
  %w4 = vector.extract %w[4] : vector<16xf32> from vector<8x16xf32>
  %p4 = arith.mulf %x4, %w4 : vector<16xf32>
  %x5 = vector.extract %x[5] : vector<16xf32> from vector<8x16xf32>
  %w5 = vector.extract %w[5] : vector<16xf32> from vector<8x16xf32>
  %p5 = arith.mulf %x5, %w5 : vector<16xf32>
  %x6 = vector.extract %x[6] : vector<16xf32> from vector<8x16xf32>
  %w6 = vector.extract %w[6] : vector<16xf32> from vector<8x16xf32>
  %p6 = arith.mulf %x6, %w6 : vector<16xf32>
  %x7 = vector.extract %x[7] : vector<16xf32> from vector<8x16xf32>
  %w7 = vector.extract %w[7] : vector<16xf32> from vector<8x16xf32>
  %p7 = arith.mulf %x7, %w7 : vector<16xf32>
  %a0 = arith.addf %acc, %p0 fastmath<contract> : vector<16xf32>
  %a1 = arith.addf %a0, %p1 fastmath<contract> : vector<16xf32>
  %a2 = arith.addf %a1, %p2 fastmath<contract> : vector<16xf32>
  %a3 = arith.addf %a2, %p3 fastmath<contract> : vector<16xf32>
  %a4 = arith.addf %a3, %p4 fastmath<contract> : vector<16xf32>
  %a5 = arith.addf %a4, %p5 fastmath<contract> : vector<16xf32>
  %a6 = arith.addf %a5, %p6 fastmath<contract> : vector<16xf32>
  %a7 = arith.addf %a6, %p7 fastmath<contract> : vector<16xf32>
  return %a7 : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_accumulation_chains %f {chains = 4} : !transform.any_op
    transform.yield
  }
}

// -----

// Five links and four chains asked: min(4, 5 / 2) = 2 partial sums; the
// term order within each is kept (the link's accumulator operand is found
// on either side).
// CHECK-LABEL: func.func @five_links
// CHECK-SAME:    (%[[A:.+]]: vector<8xf32>, %[[B:.+]]: vector<8xf32>, %[[T1:.+]]: vector<8xf32>, %[[T2:.+]]: vector<8xf32>, %[[T3:.+]]: vector<8xf32>, %[[T4:.+]]: vector<8xf32>)
// CHECK-NEXT:    %[[L0:.+]] = arith.addf %[[A]], %[[B]]
// CHECK-NEXT:    %[[C0:.+]] = arith.addf %[[L0]], %[[T2]]
// CHECK-NEXT:    %[[C1:.+]] = arith.addf %[[T1]], %[[T3]]
// CHECK-NEXT:    %[[C0B:.+]] = arith.addf %[[C0]], %[[T4]]
// CHECK-NEXT:    %[[SUM:.+]] = arith.addf %[[C0B]], %[[C1]]
// CHECK-NEXT:    return %[[SUM]]
func.func @five_links(%a: vector<8xf32>, %b: vector<8xf32>, %t1: vector<8xf32>, %t2: vector<8xf32>,
                      %t3: vector<8xf32>, %t4: vector<8xf32>) -> vector<8xf32> {
  %0 = arith.addf %a, %b : vector<8xf32>
  %1 = arith.addf %t1, %0 : vector<8xf32>
  %2 = arith.addf %1, %t2 : vector<8xf32>
  %3 = arith.addf %t3, %2 : vector<8xf32>
  %4 = arith.addf %3, %t4 : vector<8xf32>
  return %4 : vector<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_accumulation_chains %f : !transform.any_op
    transform.yield
  }
}

// -----

// Left alone: three links (too short to split), a chain broken by a second
// use of a link (each part is too short), scalar adds.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:    %[[A0:.+]] = arith.addf %arg0, %arg1
// CHECK-NEXT:    %[[A1:.+]] = arith.addf %[[A0]], %arg2
// CHECK-NEXT:    %[[A2:.+]] = arith.addf %[[A1]], %arg3
// CHECK-NEXT:    %[[B0:.+]] = arith.addf %[[A2]], %arg1
// CHECK-NEXT:    %[[B1:.+]] = arith.addf %[[B0]], %arg2
// CHECK-NEXT:    %[[B2:.+]] = arith.addf %[[B1]], %[[A2]]
// CHECK-NEXT:    %[[S0:.+]] = arith.addf %arg4, %arg5 : f32
// CHECK-NEXT:    %[[S1:.+]] = arith.addf %[[S0]], %arg5 : f32
// CHECK-NEXT:    %[[S2:.+]] = arith.addf %[[S1]], %arg5 : f32
// CHECK-NEXT:    %[[S3:.+]] = arith.addf %[[S2]], %arg5 : f32
// CHECK-NEXT:    return %[[B2]], %[[S3]]
func.func @unchanged(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<4xf32>, %d: vector<4xf32>,
                     %s: f32, %t: f32) -> (vector<4xf32>, f32) {
  %0 = arith.addf %a, %b : vector<4xf32>
  %1 = arith.addf %0, %c : vector<4xf32>
  %2 = arith.addf %1, %d : vector<4xf32>
  %3 = arith.addf %2, %b : vector<4xf32>
  %4 = arith.addf %3, %c : vector<4xf32>
  %5 = arith.addf %4, %2 : vector<4xf32>
  %6 = arith.addf %s, %t : f32
  %7 = arith.addf %6, %t : f32
  %8 = arith.addf %7, %t : f32
  %9 = arith.addf %8, %t : f32
  return %5, %9 : vector<4xf32>, f32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_accumulation_chains %f {chains = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// A chain whose last link is a term of a later chain: the later chain takes
// the first one's rewritten sum.
// CHECK-LABEL: func.func @chain_feeds_chain
// CHECK-NEXT:    %[[L0:.+]] = arith.addf %arg0, %arg1
// CHECK-NEXT:    %[[A0:.+]] = arith.addf %[[L0]], %arg3
// CHECK-NEXT:    %[[A1:.+]] = arith.addf %arg2, %arg4
// CHECK-NEXT:    %[[A:.+]] = arith.addf %[[A0]], %[[A1]]
// CHECK-NEXT:    %[[M0:.+]] = arith.addf %arg5, %arg6
// CHECK-NEXT:    %[[B0:.+]] = arith.addf %[[M0]], %arg7
// CHECK-NEXT:    %[[B1:.+]] = arith.addf %[[A]], %arg0
// CHECK-NEXT:    %[[B:.+]] = arith.addf %[[B0]], %[[B1]]
// CHECK-NEXT:    return %[[B]]
func.func @chain_feeds_chain(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<4xf32>, %d: vector<4xf32>,
                             %e: vector<4xf32>, %f: vector<4xf32>, %g: vector<4xf32>, %h: vector<4xf32>) -> vector<4xf32> {
  %0 = arith.addf %a, %b : vector<4xf32>
  %1 = arith.addf %0, %c : vector<4xf32>
  %2 = arith.addf %1, %d : vector<4xf32>
  %3 = arith.addf %2, %e : vector<4xf32>
  %4 = arith.addf %f, %g : vector<4xf32>
  %5 = arith.addf %4, %3 : vector<4xf32>
  %6 = arith.addf %5, %h : vector<4xf32>
  %7 = arith.addf %6, %a : vector<4xf32>
  return %7 : vector<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_accumulation_chains %f {chains = 2} : !transform.any_op
    transform.yield
  }
}
