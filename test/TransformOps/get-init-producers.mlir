// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Tests for transform.qforge.get_init_producers. The script emits a remark at
// every payload op of the result handle (checked with -verify-diagnostics),
// and the number of ops the handle holds.

// The linalg.fill that zeroes a generic's accumulator.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @fill_of_generic(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{init producer}}
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32):
    %s2 = arith.addf %a, %s : f32
    linalg.yield %s2 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.qforge.get_init_producers %g : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %p, "init producer" : !transform.any_op
    %n = transform.num_associations %p : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{producers: 1 : i64}}
    transform.debug.emit_param_as_remark %n, "producers:" : !transform.param<i64>
    transform.yield
  }
}

// -----

// Two inits (a sum and a product): both producers, in the order of the outs
// operands, whatever the order they are defined in.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_inits(%x: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{init 1}}
  %prod_init = linalg.fill ins(%one : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  // expected-remark @below {{init 0}}
  %sum_init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%sum_init, %prod_init : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32, %p: f32):
    %s2 = arith.addf %a, %s : f32
    %p2 = arith.mulf %a, %p : f32
    linalg.yield %s2, %p2 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.qforge.get_init_producers %g : (!transform.any_op) -> !transform.any_op
    %p0, %p1 = transform.split_handle %p : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %p0, "init 0" : !transform.any_op
    transform.debug.emit_remark_at %p1, "init 1" : !transform.any_op
    transform.yield
  }
}

// -----

// One fill feeding both inits: one entry per init, so the handle holds it
// twice.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @shared_init(%x: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  // expected-remark @below {{init 0}}
  // expected-remark @below {{init 1}}
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8xf32>) -> tensor<8xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%init, %init : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %s: f32, %m: f32):
    %s2 = arith.addf %a, %s : f32
    %m2 = arith.maximumf %a, %m : f32
    linalg.yield %s2, %m2 : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.qforge.get_init_producers %g : (!transform.any_op) -> !transform.any_op
    %p0, %p1 = transform.split_handle %p : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %p0, "init 0" : !transform.any_op
    transform.debug.emit_remark_at %p1, "init 1" : !transform.any_op
    transform.yield
  }
}

// -----

// Several targets: the producers of each target in turn. A named op
// (linalg.matmul) is destination-style too, and an init need not be a fill
// (here a tensor.empty, whose contents the elementwise generic overwrites).

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @several_targets(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x4xf32>
  // expected-remark @below {{producer 0}}
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x4xf32>) -> tensor<8x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                      outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
  // expected-remark @below {{producer 1}}
  %out = tensor.empty() : tensor<8x4xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x4xf32>) outs(%out : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x4xf32>
  return %relu : tensor<8x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul", "linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %p = transform.qforge.get_init_producers %ops : (!transform.any_op) -> !transform.any_op
    %p0, %p1 = transform.split_handle %p : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %p0, "producer 0" : !transform.any_op
    transform.debug.emit_remark_at %p1, "producer 1" : !transform.any_op
    transform.yield
  }
}

// -----

// The factored decode kernel's use: each reduction made by
// transform.qforge.factor_dequant_contraction starts from a linalg.fill, and
// the row sums accumulate into the original init.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @factored(%weights: tensor<8x4x32xi8>, %scales: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x32xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x4x32xf32>
  // expected-remark @below {{row sums init}}
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales : tensor<8x4x32xi8>, tensor<8x4x1xf32>)
      outs(%dequant_init : tensor<8x4x32xf32>) {
  ^bb0(%w: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %w : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x32xf32>
  // The new ops take the location of the contraction they replace.
  // expected-remark @below {{partial sums init}}
  // expected-remark @below {{group sums init}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x4x32xf32>, tensor<8x4x32xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%in: f32, %w: f32, %out: f32):
    %product = arith.mulf %in, %w : f32
    %sum = arith.addf %product, %out : f32
    linalg.yield %sum : f32
  } -> tensor<1x1x8xf32>
  return %matvec : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %sums, %partials, %groups, %rows = transform.qforge.factor_dequant_contraction
        %dequant, %contraction
      : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %pf = transform.qforge.get_init_producers %partials : (!transform.any_op) -> !transform.any_op
    %gf = transform.qforge.get_init_producers %groups : (!transform.any_op) -> !transform.any_op
    %rf = transform.qforge.get_init_producers %rows : (!transform.any_op) -> !transform.any_op
    // The casts fail unless every producer is a linalg.fill.
    %pfill = transform.cast %pf : !transform.any_op to !transform.op<"linalg.fill">
    %gfill = transform.cast %gf : !transform.any_op to !transform.op<"linalg.fill">
    %rfill = transform.cast %rf : !transform.any_op to !transform.op<"linalg.fill">
    transform.debug.emit_remark_at %pfill, "partial sums init" : !transform.op<"linalg.fill">
    transform.debug.emit_remark_at %gfill, "group sums init" : !transform.op<"linalg.fill">
    transform.debug.emit_remark_at %rfill, "row sums init" : !transform.op<"linalg.fill">
    transform.yield
  }
}
