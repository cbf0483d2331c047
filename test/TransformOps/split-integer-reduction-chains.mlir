// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.split_integer_reduction_chains: a chain of
// integer vector.multi_reduction <add> ops linked through their accumulator
// becomes interleaved partial sums (the first keeps the accumulator, the
// others start from zero) added by a tree of arith.addi.

// Eight links, four chains: link i goes to partial sum i mod 4, then
// ((0 + 1) + (2 + 3)).
// CHECK-LABEL: func.func @eight_links
// CHECK-SAME:    (%[[ACC:[^:]+]]: vector<16xi32>, %[[P:[^:]+]]: vector<8x16x4xi32>)
// CHECK-DAG:     %[[P0:.+]] = vector.extract %[[P]][0]
// CHECK-DAG:     %[[P1:.+]] = vector.extract %[[P]][1]
// CHECK-DAG:     %[[P2:.+]] = vector.extract %[[P]][2]
// CHECK-DAG:     %[[P3:.+]] = vector.extract %[[P]][3]
// CHECK-DAG:     %[[P4:.+]] = vector.extract %[[P]][4]
// CHECK-DAG:     %[[P5:.+]] = vector.extract %[[P]][5]
// CHECK-DAG:     %[[P6:.+]] = vector.extract %[[P]][6]
// CHECK-DAG:     %[[P7:.+]] = vector.extract %[[P]][7]
// CHECK:         %[[L0:.+]] = vector.multi_reduction <add>, %[[P0]], %[[ACC]] [1]
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant dense<0> : vector<16xi32>
// CHECK-NEXT:    %[[L1:.+]] = vector.multi_reduction <add>, %[[P1]], %[[ZERO]] [1]
// CHECK-NEXT:    %[[L2:.+]] = vector.multi_reduction <add>, %[[P2]], %[[ZERO]] [1]
// CHECK-NEXT:    %[[L3:.+]] = vector.multi_reduction <add>, %[[P3]], %[[ZERO]] [1]
// CHECK-NEXT:    %[[L4:.+]] = vector.multi_reduction <add>, %[[P4]], %[[L0]] [1]
// CHECK-NEXT:    %[[L5:.+]] = vector.multi_reduction <add>, %[[P5]], %[[L1]] [1]
// CHECK-NEXT:    %[[L6:.+]] = vector.multi_reduction <add>, %[[P6]], %[[L2]] [1]
// CHECK-NEXT:    %[[L7:.+]] = vector.multi_reduction <add>, %[[P7]], %[[L3]] [1]
// CHECK-NEXT:    %[[T01:.+]] = arith.addi %[[L4]], %[[L5]] : vector<16xi32>
// CHECK-NEXT:    %[[T23:.+]] = arith.addi %[[L6]], %[[L7]] : vector<16xi32>
// CHECK-NEXT:    %[[SUM:.+]] = arith.addi %[[T01]], %[[T23]] : vector<16xi32>
// CHECK-NOT:     vector.multi_reduction
// CHECK:         return %[[SUM]]
func.func @eight_links(%acc: vector<16xi32>, %p: vector<8x16x4xi32>) -> vector<16xi32> {
  %p0 = vector.extract %p[0] : vector<16x4xi32> from vector<8x16x4xi32>
  %p1 = vector.extract %p[1] : vector<16x4xi32> from vector<8x16x4xi32>
  %p2 = vector.extract %p[2] : vector<16x4xi32> from vector<8x16x4xi32>
  %p3 = vector.extract %p[3] : vector<16x4xi32> from vector<8x16x4xi32>
  %p4 = vector.extract %p[4] : vector<16x4xi32> from vector<8x16x4xi32>
  %p5 = vector.extract %p[5] : vector<16x4xi32> from vector<8x16x4xi32>
  %p6 = vector.extract %p[6] : vector<16x4xi32> from vector<8x16x4xi32>
  %p7 = vector.extract %p[7] : vector<16x4xi32> from vector<8x16x4xi32>
  %r0 = vector.multi_reduction <add>, %p0, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %r1 = vector.multi_reduction <add>, %p1, %r0 [1] : vector<16x4xi32> to vector<16xi32>
  %r2 = vector.multi_reduction <add>, %p2, %r1 [1] : vector<16x4xi32> to vector<16xi32>
  %r3 = vector.multi_reduction <add>, %p3, %r2 [1] : vector<16x4xi32> to vector<16xi32>
  %r4 = vector.multi_reduction <add>, %p4, %r3 [1] : vector<16x4xi32> to vector<16xi32>
  %r5 = vector.multi_reduction <add>, %p5, %r4 [1] : vector<16x4xi32> to vector<16xi32>
  %r6 = vector.multi_reduction <add>, %p6, %r5 [1] : vector<16x4xi32> to vector<16xi32>
  %r7 = vector.multi_reduction <add>, %p7, %r6 [1] : vector<16x4xi32> to vector<16xi32>
  return %r7 : vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_integer_reduction_chains %f {chains = 4} : !transform.any_op
    transform.yield
  }
}

// -----

// Five links and four chains asked: min(4, 5 / 2) = 2 partial sums, the
// reductions' unit dims and 2-D accumulators kept.
// CHECK-LABEL: func.func @five_links
// CHECK-SAME:    (%[[ACC:[^:]+]]: vector<1x16xi32>, %[[A:[^:]+]]: vector<1x1x16x4xi32>, %[[B:[^:]+]]: vector<1x1x16x4xi32>,
// CHECK-SAME:     %[[C:[^:]+]]: vector<1x1x16x4xi32>, %[[D:[^:]+]]: vector<1x1x16x4xi32>, %[[E:[^:]+]]: vector<1x1x16x4xi32>)
// CHECK:         %[[L0:.+]] = vector.multi_reduction <add>, %[[A]], %[[ACC]] [1, 3]
// CHECK-NEXT:    %[[ZERO:.+]] = arith.constant dense<0> : vector<1x16xi32>
// CHECK-NEXT:    %[[L1:.+]] = vector.multi_reduction <add>, %[[B]], %[[ZERO]] [1, 3]
// CHECK-NEXT:    %[[L2:.+]] = vector.multi_reduction <add>, %[[C]], %[[L0]] [1, 3]
// CHECK-NEXT:    %[[L3:.+]] = vector.multi_reduction <add>, %[[D]], %[[L1]] [1, 3]
// CHECK-NEXT:    %[[L4:.+]] = vector.multi_reduction <add>, %[[E]], %[[L2]] [1, 3]
// CHECK-NEXT:    %[[SUM:.+]] = arith.addi %[[L4]], %[[L3]] : vector<1x16xi32>
// CHECK:         return %[[SUM]]
func.func @five_links(%acc: vector<1x16xi32>, %a: vector<1x1x16x4xi32>, %b: vector<1x1x16x4xi32>,
                      %c: vector<1x1x16x4xi32>, %d: vector<1x1x16x4xi32>, %e: vector<1x1x16x4xi32>) -> vector<1x16xi32> {
  %r0 = vector.multi_reduction <add>, %a, %acc [1, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
  %r1 = vector.multi_reduction <add>, %b, %r0 [1, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
  %r2 = vector.multi_reduction <add>, %c, %r1 [1, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
  %r3 = vector.multi_reduction <add>, %d, %r2 [1, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
  %r4 = vector.multi_reduction <add>, %e, %r3 [1, 3] : vector<1x1x16x4xi32> to vector<1x16xi32>
  return %r4 : vector<1x16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_integer_reduction_chains %f {chains = 4} : !transform.any_op
    transform.yield
  }
}

// -----

// Not chains, left as they are: three links (too short to split); float
// sums (reassociating them changes the rounding: split_accumulation_chains);
// maxima; and a chain broken by a second use of a link (the value is
// needed, so the next link starts a new chain of two).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     arith.constant
// CHECK-NOT:     arith.addi
// CHECK:         return
func.func @left_alone(%acc: vector<16xi32>, %facc: vector<16xf32>, %p: vector<16x4xi32>, %f: vector<16x4xf32>)
    -> (vector<16xi32>, vector<16xf32>, vector<16xi32>, vector<16xi32>, vector<16xi32>) {
  %s0 = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %s1 = vector.multi_reduction <add>, %p, %s0 [1] : vector<16x4xi32> to vector<16xi32>
  %s2 = vector.multi_reduction <add>, %p, %s1 [1] : vector<16x4xi32> to vector<16xi32>
  %f0 = vector.multi_reduction <add>, %f, %facc [1] : vector<16x4xf32> to vector<16xf32>
  %f1 = vector.multi_reduction <add>, %f, %f0 [1] : vector<16x4xf32> to vector<16xf32>
  %f2 = vector.multi_reduction <add>, %f, %f1 [1] : vector<16x4xf32> to vector<16xf32>
  %f3 = vector.multi_reduction <add>, %f, %f2 [1] : vector<16x4xf32> to vector<16xf32>
  %m0 = vector.multi_reduction <maxui>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %m1 = vector.multi_reduction <maxui>, %p, %m0 [1] : vector<16x4xi32> to vector<16xi32>
  %m2 = vector.multi_reduction <maxui>, %p, %m1 [1] : vector<16x4xi32> to vector<16xi32>
  %m3 = vector.multi_reduction <maxui>, %p, %m2 [1] : vector<16x4xi32> to vector<16xi32>
  %b0 = vector.multi_reduction <add>, %p, %acc [1] : vector<16x4xi32> to vector<16xi32>
  %b1 = vector.multi_reduction <add>, %p, %b0 [1] : vector<16x4xi32> to vector<16xi32>
  %b2 = vector.multi_reduction <add>, %p, %b1 [1] : vector<16x4xi32> to vector<16xi32>
  %b3 = vector.multi_reduction <add>, %p, %b2 [1] : vector<16x4xi32> to vector<16xi32>
  return %s2, %f3, %m3, %b1, %b3 : vector<16xi32>, vector<16xf32>, vector<16xi32>, vector<16xi32>, vector<16xi32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_integer_reduction_chains %f {chains = 4} : !transform.any_op
    transform.yield
  }
}
