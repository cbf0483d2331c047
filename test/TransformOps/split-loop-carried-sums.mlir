// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// Tests for transform.qforge.split_loop_carried_sums: a float vector sum
// carried by an scf.for (its yield a chain of adds starting from the
// iter_arg) becomes min(chains, links) partial sums, each its own iter_arg
// (the new ones from -0.0, which adds nothing to any value, -0.0 included),
// link i adding to partial i mod chains, and the partials added by a tree
// after the loop, which replaces the loop's old result.

// Two links, two chains: each link its own accumulator.
// CHECK-LABEL: func.func @two_links
// CHECK-SAME:    (%[[INIT:[a-z0-9_]+]]: vector<16xf32>, %[[A:[a-z0-9_]+]]: vector<16xf32>, %[[B:[a-z0-9_]+]]: vector<16xf32>)
// CHECK:         %[[NEG0:.+]] = arith.constant dense<-0.000000e+00> : vector<16xf32>
// CHECK:         %[[R:.+]]:2 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC0:.+]] = %[[INIT]], %[[ACC1:.+]] = %[[NEG0]]) -> (vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT:      %[[L0:.+]] = arith.addf %[[ACC0]], %[[A]] : vector<16xf32>
// CHECK-NEXT:      %[[L1:.+]] = arith.addf %[[ACC1]], %[[B]] : vector<16xf32>
// CHECK-NEXT:      scf.yield %[[L0]], %[[L1]] : vector<16xf32>, vector<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SUM:.+]] = arith.addf %[[R]]#0, %[[R]]#1 : vector<16xf32>
// CHECK-NEXT:    return %[[SUM]] : vector<16xf32>
func.func @two_links(%init: vector<16xf32>, %a: vector<16xf32>, %b: vector<16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<16xf32>) {
    %1 = arith.addf %acc, %a : vector<16xf32>
    %2 = arith.addf %1, %b : vector<16xf32>
    scf.yield %2 : vector<16xf32>
  }
  return %r : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_loop_carried_sums %loop {chains = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// Four links (the accumulator on either side of an add), two chains from a
// param: links 0 and 2 in partial 0, 1 and 3 in partial 1; the sum after
// the loop carries only the fastmath flags every link has (here none: only
// the last link says reassoc).
// CHECK-LABEL: func.func @four_links
// CHECK-SAME:    (%[[INIT:[a-z0-9_]+]]: vector<8xf32>, %[[T0:[a-z0-9_]+]]: vector<8xf32>, %[[T1:[a-z0-9_]+]]: vector<8xf32>, %[[T2:[a-z0-9_]+]]: vector<8xf32>, %[[T3:[a-z0-9_]+]]: vector<8xf32>)
// CHECK:         %[[R:.+]]:2 = scf.for %{{.+}} iter_args(%[[ACC0:.+]] = %[[INIT]], %[[ACC1:.+]] = %{{.+}})
// CHECK-NEXT:      %[[L0:.+]] = arith.addf %[[ACC0]], %[[T0]] : vector<8xf32>
// CHECK-NEXT:      %[[L1:.+]] = arith.addf %[[T1]], %[[ACC1]] : vector<8xf32>
// CHECK-NEXT:      %[[L2:.+]] = arith.addf %[[L0]], %[[T2]] : vector<8xf32>
// CHECK-NEXT:      %[[L3:.+]] = arith.addf %[[L1]], %[[T3]] fastmath<reassoc> : vector<8xf32>
// CHECK-NEXT:      scf.yield %[[L2]], %[[L3]] : vector<8xf32>, vector<8xf32>
// CHECK:         arith.addf %[[R]]#0, %[[R]]#1 : vector<8xf32>
func.func @four_links(%init: vector<8xf32>, %t0: vector<8xf32>, %t1: vector<8xf32>, %t2: vector<8xf32>, %t3: vector<8xf32>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %init) -> (vector<8xf32>) {
    %1 = arith.addf %acc, %t0 : vector<8xf32>
    %2 = arith.addf %t1, %1 : vector<8xf32>
    %3 = arith.addf %2, %t2 : vector<8xf32>
    %4 = arith.addf %3, %t3 fastmath<reassoc> : vector<8xf32>
    scf.yield %4 : vector<8xf32>
  }
  return %r : vector<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %chains = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.qforge.split_loop_carried_sums %loop chains = %chains : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}

// -----

// Three links, four chains asked: three partial sums (one per link), added
// as a tree ((0 + 1) + 2); a second iter_arg that is not a sum stays.
// CHECK-LABEL: func.func @fewer_links_than_chains
// CHECK:         %[[R:.+]]:4 = scf.for %{{.+}} iter_args(%[[ACC0:.+]] = %{{.+}}, %[[IDX:.+]] = %{{.+}}, %[[ACC1:.+]] = %{{.+}}, %[[ACC2:.+]] = %{{.+}}) -> (vector<4xf32>, index, vector<4xf32>, vector<4xf32>)
// CHECK:           %[[L0:.+]] = arith.addf %[[ACC0]], %{{.+}}
// CHECK:           %[[L1:.+]] = arith.addf %[[ACC1]], %{{.+}}
// CHECK:           %[[L2:.+]] = arith.addf %[[ACC2]], %{{.+}}
// CHECK:           scf.yield %[[L0]], %{{.+}}, %[[L1]], %[[L2]]
// CHECK:         %[[S01:.+]] = arith.addf %[[R]]#0, %[[R]]#2
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[S01]], %[[R]]#3
// CHECK-NEXT:    return %[[S]], %[[R]]#1
func.func @fewer_links_than_chains(%init: vector<4xf32>, %t: vector<4xf32>) -> (vector<4xf32>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %r:2 = scf.for %i = %c0 to %c9 step %c3 iter_args(%acc = %init, %n = %c0) -> (vector<4xf32>, index) {
    %1 = arith.addf %acc, %t : vector<4xf32>
    %2 = arith.addf %1, %t : vector<4xf32>
    %3 = arith.addf %2, %t : vector<4xf32>
    %m = arith.addi %n, %c1 : index
    scf.yield %3, %m : vector<4xf32>, index
  }
  return %r#0, %r#1 : vector<4xf32>, index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_loop_carried_sums %loop {chains = 4} : !transform.any_op
    transform.yield
  }
}

// -----

// A two-level accumulator of lane groups (vector<1x1x2x8>, loops (n, m, c,
// lanes)) moved into its loops' order by transposes that move unit dims
// only, and reshaped around the links: the elements keep their order, so the
// chain is split as any other (the partial sums shape-cast to the links'
// type). A transpose of the two non-unit dims is not a reshape: that sum
// is left.
// CHECK-LABEL: func.func @through_unit_transposes
// CHECK:         %[[R:.+]]:2 = scf.for {{.*}} -> (vector<1x1x2x8xf32>, vector<1x1x2x8xf32>) {
// CHECK:           arith.addf {{.*}} : vector<2x8xf32>
// CHECK:           arith.addf {{.*}} : vector<2x8xf32>
// CHECK:         arith.addf %[[R]]#0, %[[R]]#1 : vector<1x1x2x8xf32>
// CHECK:         scf.for {{.*}} -> (vector<2x8xf32>) {
// CHECK-NOT:     dense<-0.0
func.func @through_unit_transposes(%init: vector<1x1x2x8xf32>, %t: vector<2x8xf32>, %init2: vector<2x8xf32>, %u: vector<8x2xf32>)
    -> (vector<1x1x2x8xf32>, vector<2x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<1x1x2x8xf32>) {
    %moved = vector.transpose %acc, [1, 2, 0, 3] : vector<1x1x2x8xf32> to vector<1x2x1x8xf32>
    %a = vector.shape_cast %moved : vector<1x2x1x8xf32> to vector<2x8xf32>
    %1 = arith.addf %a, %t : vector<2x8xf32>
    %2 = arith.addf %1, %t : vector<2x8xf32>
    %b = vector.shape_cast %2 : vector<2x8xf32> to vector<1x2x1x8xf32>
    %back = vector.transpose %b, [2, 0, 1, 3] : vector<1x2x1x8xf32> to vector<1x1x2x8xf32>
    scf.yield %back : vector<1x1x2x8xf32>
  }
  %r2 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init2) -> (vector<2x8xf32>) {
    %a = vector.transpose %acc, [1, 0] : vector<2x8xf32> to vector<8x2xf32>
    %1 = arith.addf %a, %u : vector<8x2xf32>
    %2 = arith.addf %1, %u : vector<8x2xf32>
    %b = vector.transpose %2, [1, 0] : vector<8x2xf32> to vector<2x8xf32>
    scf.yield %b : vector<2x8xf32>
  }
  return %r, %r2 : vector<1x1x2x8xf32>, vector<2x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_loop_carried_sums %loops {chains = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// Left as they are: a link whose result has another use (the chain cannot
// be reordered without changing it), an accumulator read elsewhere in the
// body, an integer sum, a single link, and a total read elsewhere too: the
// last link written in the body, yielded twice, or its reshape written (each
// would read one partial sum after a split).
// CHECK-LABEL: func.func @not_split
// CHECK-COUNT-4: scf.for {{.*}} -> (vector<4x{{[a-z0-9]+}}>) {
// CHECK-NOT:     dense<-0.0
// CHECK:         scf.for {{.*}} -> (vector<4xf32>) {
// CHECK:         scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>) {
// CHECK:         scf.for {{.*}} -> (vector<1x4xf32>) {
// CHECK-NOT:     dense<-0.0
func.func @not_split(%init: vector<4xf32>, %iinit: vector<4xi32>, %t: vector<4xf32>, %it: vector<4xi32>, %out: memref<4xf32>) -> (vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r0 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<4xf32>) {
    %1 = arith.addf %acc, %t : vector<4xf32>
    vector.transfer_write %1, %out[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
    %2 = arith.addf %1, %t : vector<4xf32>
    scf.yield %2 : vector<4xf32>
  }
  %r1 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<4xf32>) {
    %1 = arith.addf %acc, %t : vector<4xf32>
    %2 = arith.addf %1, %acc : vector<4xf32>
    scf.yield %2 : vector<4xf32>
  }
  %r2 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %iinit) -> (vector<4xi32>) {
    %1 = arith.addi %acc, %it : vector<4xi32>
    %2 = arith.addi %1, %it : vector<4xi32>
    scf.yield %2 : vector<4xi32>
  }
  %r3 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<4xf32>) {
    %1 = arith.addf %acc, %t : vector<4xf32>
    scf.yield %1 : vector<4xf32>
  }
  %r4 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<4xf32>) {
    %1 = arith.addf %acc, %t : vector<4xf32>
    %2 = arith.addf %1, %t : vector<4xf32>
    vector.transfer_write %2, %out[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
    scf.yield %2 : vector<4xf32>
  }
  %r5:2 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init, %copy = %init) -> (vector<4xf32>, vector<4xf32>) {
    %1 = arith.addf %acc, %t : vector<4xf32>
    %2 = arith.addf %1, %t : vector<4xf32>
    scf.yield %2, %2 : vector<4xf32>, vector<4xf32>
  }
  %init2 = vector.broadcast %init : vector<4xf32> to vector<1x4xf32>
  %r6 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init2) -> (vector<1x4xf32>) {
    %a = vector.extract %acc[0] : vector<4xf32> from vector<1x4xf32>
    %1 = arith.addf %a, %t : vector<4xf32>
    %2 = arith.addf %1, %t : vector<4xf32>
    %b = vector.broadcast %2 : vector<4xf32> to vector<1x4xf32>
    %e = vector.extract %b[0] : vector<4xf32> from vector<1x4xf32>
    vector.transfer_write %e, %out[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
    scf.yield %b : vector<1x4xf32>
  }
  return %r0, %r1, %r2, %r3 : vector<4xf32>, vector<4xf32>, vector<4xi32>, vector<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_loop_carried_sums %loops {chains = 2} : !transform.any_op
    transform.yield
  }
}

// -----

// The same loop twice in the handle: split once (the second visit would
// find a loop the first replaced).
// CHECK-LABEL: func.func @twice_in_the_handle
// CHECK:         scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>)
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @twice_in_the_handle(%init: vector<16xf32>, %a: vector<16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<16xf32>) {
    %1 = arith.addf %acc, %a : vector<16xf32>
    %2 = arith.addf %1, %a : vector<16xf32>
    scf.yield %2 : vector<16xf32>
  }
  return %r : vector<16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %twice = transform.merge_handles %loop, %loop : !transform.any_op
    transform.qforge.split_loop_carried_sums %twice : !transform.any_op
    transform.yield
  }
}

// -----

// A term that is itself an add, left of the accumulator: the chain is the
// operand that reaches the iter_arg.
// CHECK-LABEL: func.func @term_is_an_add
// CHECK:         scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>)
func.func @term_is_an_add(%init: vector<4xf32>, %a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (vector<4xf32>) {
    %1 = arith.addf %acc, %a : vector<4xf32>
    %t = arith.addf %a, %b : vector<4xf32>
    %2 = arith.addf %t, %1 : vector<4xf32>
    scf.yield %2 : vector<4xf32>
  }
  return %r : vector<4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.qforge.split_loop_carried_sums %loop : !transform.any_op
    transform.yield
  }
}
