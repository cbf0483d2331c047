// RUN: qforge-opt %s --split-input-file --transform-interpreter | FileCheck %s

// Tests for transform.qforge.hoist_operand_conversion: the part of a
// generic's body that converts one input by itself becomes an elementwise
// generic before the loops that do not change that input.

#x = affine_map<(t, k, n) -> (t, k)>
#w = affine_map<(t, k, n) -> (k, n)>
#acc = affine_map<(t, k, n) -> (t, n)>

// The weights' uitofp of a group tile, inside a loop over 4 token blocks:
// converted once before it (with the slice that defines the tile), the
// partial sums read f32; the group loop, on which the tile depends, keeps
// the conversion.
// CHECK-LABEL: func.func @token_blocks
// CHECK-SAME:    (%[[X:.+]]: tensor<4x8x16xf32>, %[[W:.+]]: tensor<2x16x32xi8>,
// CHECK:         scf.for %[[G:.+]] = %c0 to %c2
// CHECK-NEXT:      %[[TILE:.+]] = tensor.extract_slice %[[W]][%[[G]], 0, 0] [1, 16, 32] [1, 1, 1] : tensor<2x16x32xi8> to tensor<16x32xi8>
// CHECK-NEXT:      %[[EMPTY:.+]] = tensor.empty() : tensor<16x32xf32>
// CHECK-NEXT:      %[[WF:.+]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "parallel"]
// CHECK-SAME:          ins(%[[TILE]] : tensor<16x32xi8>) outs(%[[EMPTY]] : tensor<16x32xf32>)
// CHECK-NEXT:      ^bb0(%[[IN:.+]]: i8, %{{.+}}: f32):
// CHECK-NEXT:        %[[F:.+]] = arith.uitofp %[[IN]] : i8 to f32
// CHECK-NEXT:        linalg.yield %[[F]] : f32
// CHECK:           scf.for %[[B:.+]] = %c0 to %c4
// CHECK-NOT:         tensor.extract_slice %[[W]]
// CHECK:             linalg.generic
// CHECK-SAME:          ins(%{{.+}}, %[[WF]] : tensor<8x16xf32>, tensor<16x32xf32>)
// CHECK-NEXT:        ^bb0(%[[XE:.+]]: f32, %[[WE:.+]]: f32, %[[A:.+]]: f32):
// CHECK-NEXT:          %[[P:.+]] = arith.mulf %[[XE]], %[[WE]] : f32
// CHECK-NEXT:          %[[S:.+]] = arith.addf %[[P]], %[[A]] : f32
// CHECK-NEXT:          linalg.yield %[[S]] : f32
// CHECK-NOT:       arith.uitofp
func.func @token_blocks(%x: tensor<4x8x16xf32>, %w: tensor<2x16x32xi8>, %init: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %g = %c0 to %c2 step %c1 iter_args(%acc_g = %init) -> (tensor<4x8x32xf32>) {
    %r2 = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc_b = %acc_g) -> (tensor<4x8x32xf32>) {
      %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<8x16xf32>
      %wt = tensor.extract_slice %w[%g, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<2x16x32xi8> to tensor<16x32xi8>
      %ab = tensor.extract_slice %acc_b[%b, 0, 0] [1, 8, 32] [1, 1, 1] : tensor<4x8x32xf32> to tensor<8x32xf32>
      %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
          ins(%xb, %wt : tensor<8x16xf32>, tensor<16x32xi8>) outs(%ab : tensor<8x32xf32>) {
      ^bb0(%xe: f32, %we: i8, %a: f32):
        %wf = arith.uitofp %we : i8 to f32
        %prod = arith.mulf %xe, %wf : f32
        %sum = arith.addf %prod, %a : f32
        linalg.yield %sum : f32
      } -> tensor<8x32xf32>
      %upd = tensor.insert_slice %p into %acc_b[%b, 0, 0] [1, 8, 32] [1, 1, 1] : tensor<8x32xf32> into tensor<4x8x32xf32>
      scf.yield %upd : tensor<4x8x32xf32>
    }
    scf.yield %r2 : tensor<4x8x32xf32>
  }
  return %r : tensor<4x8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#x = affine_map<(t, k, n) -> (t, k)>
#w = affine_map<(t, k, n) -> (k, n)>
#acc = affine_map<(t, k, n) -> (t, n)>

// A conversion of several ops (a signed byte's offset, then the float) with
// a constant of the body, and a weight tile that does not depend on either
// loop: hoisted out of both (2 x 3 = 6 runs per conversion, min 6).
// CHECK-LABEL: func.func @two_loops_and_a_constant
// CHECK:         %[[WF:.+]] = linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: i8, %{{.+}}: f32):
// CHECK-NEXT:      %[[C:.+]] = arith.constant -128 : i8
// CHECK-NEXT:      %[[S:.+]] = arith.xori %[[IN]], %[[C]] : i8
// CHECK-NEXT:      %[[F:.+]] = arith.sitofp %[[S]] : i8 to f32
// CHECK-NEXT:      linalg.yield %[[F]] : f32
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             linalg.generic {{.*}} ins(%{{.+}}, %[[WF]] : tensor<8x16xf32>, tensor<16x32xf32>)
func.func @two_loops_and_a_constant(%x: tensor<3x8x16xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc_i = %init) -> (tensor<8x32xf32>) {
    %r2 = scf.for %b = %c0 to %c3 step %c1 iter_args(%acc_b = %acc_i) -> (tensor<8x32xf32>) {
      %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<3x8x16xf32> to tensor<8x16xf32>
      %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
          ins(%xb, %w : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc_b : tensor<8x32xf32>) {
      ^bb0(%xe: f32, %we: i8, %a: f32):
        %c128 = arith.constant -128 : i8
        %s = arith.xori %we, %c128 : i8
        %wf = arith.sitofp %s : i8 to f32
        %prod = arith.mulf %xe, %wf : f32
        %sum = arith.addf %prod, %a : f32
        linalg.yield %sum : f32
      } -> tensor<8x32xf32>
      scf.yield %p : tensor<8x32xf32>
    }
    scf.yield %r2 : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1, min_iterations = 6}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#x = affine_map<(t, k, n) -> (t, k)>
#w = affine_map<(t, k, n) -> (k, n)>
#acc = affine_map<(t, k, n) -> (t, n)>

// Left as they are (one handle holds all five generics): too few runs per
// conversion (4 blocks, min 8); a tile that depends on the only loop; an
// scf.forall (each thread its own tiles); an scf.if; an element used
// unconverted too. No conversion generic (two parallel dims) appears and
// each conversion stays in its generic.
// CHECK-LABEL: func.func @too_few_blocks
// CHECK-NOT:     tensor.empty
// CHECK:         scf.for
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      linalg.generic
// CHECK-NOT:       tensor.empty
// CHECK:             arith.uitofp
// CHECK:         return
func.func @too_few_blocks(%x: tensor<4x8x16xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<8x16xf32>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%xb, %w : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %wf = arith.uitofp %we : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @tile_of_the_loop
// CHECK-NOT:     tensor.empty
// CHECK:         scf.for
// CHECK:           tensor.extract_slice %{{.+}}[%{{.+}}, 0, 0] [1, 16, 32]
// CHECK-NEXT:      linalg.generic
// CHECK:             arith.uitofp
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @tile_of_the_loop(%x: tensor<8x16xf32>, %w: tensor<16x16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %g = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[0, 0] [8, 16] [1, 1] : tensor<8x16xf32> to tensor<8x16xf32>
    %wt = tensor.extract_slice %w[%g, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<16x16x32xi8> to tensor<16x32xi8>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%xb, %wt : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %wf = arith.uitofp %we : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @in_a_forall
// CHECK-NOT:     tensor.empty
// CHECK:         scf.forall
// CHECK:           linalg.generic
// CHECK:             arith.uitofp
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @in_a_forall(%x: tensor<16x8x16xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %r = scf.forall (%t) in (16) shared_outs(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%t, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<16x8x16xf32> to tensor<8x16xf32>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%xb, %w : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %wf = arith.uitofp %we : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %p into %acc[0, 0] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<8x32xf32>
    }
  }
  return %r : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @in_an_if
// CHECK-NOT:     tensor.empty
// CHECK:         scf.for
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        linalg.generic
// CHECK:               arith.uitofp
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @in_an_if(%x: tensor<16x8x16xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>, %on: i1) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %b = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<16x8x16xf32> to tensor<8x16xf32>
    %q = scf.if %on -> (tensor<8x32xf32>) {
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%xb, %w : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %wf = arith.uitofp %we : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
      scf.yield %p : tensor<8x32xf32>
    } else {
      scf.yield %acc : tensor<8x32xf32>
    }
    scf.yield %q : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @element_used_unconverted
// CHECK-NOT:     tensor.empty
// CHECK:         scf.for
// CHECK-NEXT:      tensor.extract_slice
// CHECK-NEXT:      linalg.generic
// CHECK:             arith.uitofp
// CHECK:             arith.cmpi
// CHECK-NOT:     tensor.empty
// CHECK:         return
func.func @element_used_unconverted(%x: tensor<16x8x16xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %b = %c0 to %c16 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<16x8x16xf32> to tensor<8x16xf32>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%xb, %w : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %wf = arith.uitofp %we : i8 to f32
      %xq = arith.fptoui %xe : f32 to i8
      %same = arith.cmpi eq, %we, %xq : i8
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      %kept = arith.select %same, %sum, %a : f32
      linalg.yield %kept : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1, min_iterations = 8}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#x = affine_map<(t, k, h, n) -> (t, k, h)>
#w = affine_map<(t, k, h, n) -> (k, n)>
#acc = affine_map<(t, k, h, n) -> (t, n)>

// Byte pairs (4-bit weights): the nibble is picked by the index of loop
// dim h, which the input's map does not have. The converted tensor has the
// input's dims and h, in loop order (k, h, n); the conversion's index names
// its own dim 1; the generic reads it through (k, h, n); the index and its
// arithmetic leave the generic with the conversion.
// CHECK-DAG:     #[[READ:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:     #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:     #[[CONV:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-LABEL: func.func @nibbles
// CHECK:         %[[WF:.+]] = linalg.generic {indexing_maps = [#[[READ]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%{{.+}} : tensor<16x32xi8>) outs(%{{.+}} : tensor<16x2x32xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: i8, %{{.+}}: f32):
// CHECK-NEXT:      %[[H:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[H8:.+]] = arith.index_cast %[[H]] : index to i8
// CHECK-NEXT:      %[[FOUR:.+]] = arith.constant 4 : i8
// CHECK-NEXT:      %[[SHIFT:.+]] = arith.muli %[[H8]], %[[FOUR]] : i8
// CHECK-NEXT:      arith.shrui %[[IN]], %[[SHIFT]] : i8
// CHECK:           arith.uitofp %{{.+}} : i4 to f32
// CHECK:         scf.for
// CHECK:           linalg.generic {indexing_maps = [#{{.+}}, #[[CONV]], #{{.+}}]
// CHECK-SAME:          ins(%{{.+}}, %[[WF]] : tensor<8x16x2xf32>, tensor<16x2x32xf32>)
// CHECK-NEXT:      ^bb0(%{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT:        arith.mulf
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        linalg.yield
// CHECK-NOT:     arith.shrui
func.func @nibbles(%x: tensor<4x8x16x2xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%b, 0, 0, 0] [1, 8, 16, 2] [1, 1, 1, 1] : tensor<4x8x16x2xf32> to tensor<8x16x2xf32>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
        ins(%xb, %w : tensor<8x16x2xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %which = linalg.index 2 : index
      %which8 = arith.index_cast %which : index to i8
      %four = arith.constant 4 : i8
      %shift = arith.muli %which8, %four : i8
      %shifted = arith.shrui %we, %shift : i8
      %nibble = arith.trunci %shifted : i8 to i4
      %wf = arith.uitofp %nibble : i4 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#x = affine_map<(t, k, n) -> (t, k)>
#w = affine_map<(t, k, n) -> (k, n)>
#acc = affine_map<(t, k, n) -> (t, n)>

// A conversion that captures a value the loop changes (the block's offset
// added to each weight) stays in the loop.
// CHECK-LABEL: func.func @captures_the_loop
// CHECK:         scf.for
// CHECK:           linalg.generic
// CHECK:             arith.addi
// CHECK:             arith.uitofp
func.func @captures_the_loop(%x: tensor<4x8x16xf32>, %w: tensor<16x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<8x16xf32>
    %offset = arith.index_cast %b : index to i8
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%xb, %w : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %shifted = arith.addi %we, %offset : i8
      %wf = arith.uitofp %shifted : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#x = affine_map<(t, n, k) -> (t, k)>
#w = affine_map<(t, n, k) -> (k, n)>
#acc = affine_map<(t, n, k) -> (t, n)>

// The input's map transposed against the loops (n before k): the converted
// tensor follows the loop order, n x k, read through (k, n) -> (n, k). A
// linalg.index the rest of the body uses too stays there and is copied into
// the conversion, renumbered. Dynamic sizes come from the input.
// CHECK-DAG:     #[[TRANSPOSED:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:     #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:     #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @transposed_and_shared_index
// CHECK-SAME:    (%{{.+}}: tensor<4x8x?xf32>, %[[W:.+]]: tensor<?x32xi8>,
// CHECK:         %[[K:.+]] = tensor.dim %[[W]], %c0
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[K]]) : tensor<32x?xf32>
// CHECK:         %[[WF:.+]] = linalg.generic {indexing_maps = [#[[TRANSPOSED]], #[[ID2]]]
// CHECK-SAME:        ins(%[[W]] : tensor<?x32xi8>) outs(%[[EMPTY]] : tensor<32x?xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: i8, %{{.+}}: f32):
// CHECK-NEXT:      %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I8:.+]] = arith.index_cast %[[I]] : index to i8
// CHECK-NEXT:      %[[S:.+]] = arith.xori %[[IN]], %[[I8]] : i8
// CHECK-NEXT:      %[[F:.+]] = arith.uitofp %[[S]] : i8 to f32
// CHECK-NEXT:      linalg.yield %[[F]] : f32
// CHECK:         scf.for
// CHECK:           linalg.generic {indexing_maps = [#{{.+}}, #[[NK]], #{{.+}}]
// CHECK-SAME:          ins(%{{.+}}, %[[WF]] : tensor<8x?xf32>, tensor<32x?xf32>)
// CHECK-NEXT:      ^bb0(%{{.+}}: f32, %[[WE:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:        %[[N:.+]] = linalg.index 1 : index
// CHECK-NEXT:        %[[N8:.+]] = arith.index_cast %[[N]] : index to i8
// CHECK-NEXT:        arith.mulf %{{.+}}, %[[WE]] : f32
// CHECK:             arith.uitofp %[[N8]] : i8 to f32
func.func @transposed_and_shared_index(%x: tensor<4x8x?xf32>, %w: tensor<?x32xi8>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %k = tensor.dim %x, %c2 : tensor<4x8x?xf32>
  %r = scf.for %b = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %xb = tensor.extract_slice %x[%b, 0, 0] [1, 8, %k] [1, 1, 1] : tensor<4x8x?xf32> to tensor<8x?xf32>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xb, %w : tensor<8x?xf32>, tensor<?x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %n = linalg.index 1 : index
      %n8 = arith.index_cast %n : index to i8
      %s = arith.xori %we, %n8 : i8
      %wf = arith.uitofp %s : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %nf = arith.uitofp %n8 : i8 to f32
      %sum = arith.addf %prod, %a : f32
      %sum2 = arith.addf %sum, %nf : f32
      linalg.yield %sum2 : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

#x = affine_map<(t, k, n) -> (t, k)>
#w = affine_map<(t, k, n) -> (k, n)>
#acc = affine_map<(t, k, n) -> (t, n)>

// A slice offset computed by a division inside the loop (a loop of unknown
// count, which may run no iteration): the division is not speculatable, so
// neither it nor the conversion moves.
// CHECK-LABEL: func.func @unspeculatable_offset
// CHECK-NOT:     tensor.empty
// CHECK:         scf.for
// CHECK-NEXT:      arith.divui
// CHECK:           linalg.generic
// CHECK:             arith.uitofp
func.func @unspeculatable_offset(%x: tensor<8x16xf32>, %w: tensor<4x16x32xi8>, %init: tensor<8x32xf32>,
                                 %blocks: index, %g: index, %d: index) -> tensor<8x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %b = %c0 to %blocks step %c1 iter_args(%acc = %init) -> (tensor<8x32xf32>) {
    %q = arith.divui %g, %d : index
    %wt = tensor.extract_slice %w[%q, 0, 0] [1, 16, 32] [1, 1, 1] : tensor<4x16x32xi8> to tensor<16x32xi8>
    %p = linalg.generic {indexing_maps = [#x, #w, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%x, %wt : tensor<8x16xf32>, tensor<16x32xi8>) outs(%acc : tensor<8x32xf32>) {
    ^bb0(%xe: f32, %we: i8, %a: f32):
      %wf = arith.uitofp %we : i8 to f32
      %prod = arith.mulf %xe, %wf : f32
      %sum = arith.addf %prod, %a : f32
      linalg.yield %sum : f32
    } -> tensor<8x32xf32>
    scf.yield %p : tensor<8x32xf32>
  }
  return %r : tensor<8x32xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %conversions, %updated = transform.qforge.hoist_operand_conversion %g {input = 1}
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
