// RUN: qforge-opt %s --split-input-file --transform-interpreter --verify-diagnostics

// Negative tests for transform.qforge.match_dequant_contraction. When no pair
// is found the op fails silenceably; at the top level of the interpreter a
// silenceable failure is reported as an error at the transform op.

// The contraction has only ONE reduction dim (it reduces the 16 elements of
// each group, the groups stay parallel): the dequant is fine, the consumer
// does not qualify.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @one_reduction_dim(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<4x16xf32>, %acc: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #id, #out],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %d : tensor<4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The "dequant" generic has a reduction iterator.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @dequant_with_reduction(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The scale is read through the identity map (one scale per weight, not per
// group): not a broadcasting read.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @scale_identity_map(%w: tensor<8x4x16xi8>, %s: tensor<8x4x16xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s : tensor<8x4x16xi8>, tensor<8x4x16xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %out: f32):
    %wf = arith.uitofp %in : i8 to f32
    %scaled = arith.mulf %wf, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The zero-point is read through the identity map (the scale is fine).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @zero_point_identity_map(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x16xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #id, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x16xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// No integer input: the weights are already f32 (no int-to-float cast).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @float_weights(%w: tensor<8x4x16xf32>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xf32>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: f32, %scale: f32, %zero: f32, %out: f32):
    %shifted = arith.subf %in, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// No integer input: the cast converts an integer computed in the body (the
// iteration index), not one read from an input operand.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @cast_of_index(%s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %zp : tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%scale: f32, %zero: f32, %out: f32):
    %i = linalg.index 2 : index
    %i32 = arith.index_cast %i : index to i32
    %wf = arith.uitofp %i32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The integer weights are read through a broadcasting map (not a
// permutation): they are not the elementwise-read weights.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#bcast = affine_map<(d0, d1, d2) -> (d1, d2)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @weights_broadcast_map(%w: tensor<4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#bcast, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The consumer has two reduction dims but is not a multiply-accumulate
// (max-reduction of products).

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @not_mul_add(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.maximumf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The failure is silenceable: under failures(suppress) it is dropped and the
// interpreter carries on after the suppressing sequence.

// expected-remark @below {{after the suppressed failure}}
func.func @silenceable(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %dequant, %contraction = transform.qforge.match_dequant_contraction %arg0
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    }
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "after the suppressed failure" : !transform.any_op
    transform.yield
  }
}

// -----

// A handle consumed by an earlier transform op (tiling the dequant consumes
// %dequant) cannot be read by the matcher afterwards.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @consumed_handle(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  // expected-note @below {{ancestor payload op}}
  // expected-note @below {{nested payload op}}
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-note @below {{handle to invalidated ops}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-note @below {{invalidated by this transform op that consumes its operand #0}}
    %tiled, %loop = transform.structured.tile_using_for %dequant tile_sizes [2]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{uses a handle invalidated by a previously executed transform op}}
    %d2, %c2 = transform.qforge.match_dequant_contraction %dequant
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A result handle typed for another kind of op: the matched contraction is a
// linalg.generic, not a linalg.matmul.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @wrong_result_handle_type(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  // expected-note @below {{payload operation}}
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{incompatible payload operation name expected linalg.matmul vs linalg.generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.op<"linalg.generic">, !transform.op<"linalg.matmul">)
    transform.yield
  }
}

// -----

// The root must be an op handle, not a parameter.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{op operand #0 must be TransformHandleTypeInterface instance, but got '!transform.param<i64>'}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %p
      : (!transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The results must be op handles, not value handles.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{op result #0 must be TransformHandleTypeInterface instance, but got '!transform.any_value'}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_value, !transform.any_op)
    transform.yield
  }
}

// -----

// Malformed: one result instead of two.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{op expected 2 results}}
    %dequant = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op)
    transform.yield
  }
}

// -----

// Malformed: three results instead of two.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{op expected 2 results}}
    %dequant, %contraction, %extra = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Malformed: the functional type lists one result while two are bound.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{operation defines 1 results but was provided 2 to bind}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// subf operands swapped: (zp - tofp(w)) * scale is the negated dequantized
// value, not a dequantization; it must not match.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#act = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#wmap = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#res = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>

func.func @swapped_subf(%w: tensor<8x4x16xi8>, %s: tensor<8x4x1xf32>, %zp: tensor<8x4x1xf32>,
    %x: tensor<1x1x4x16xf32>, %acc: tensor<1x1x8xf32>) -> tensor<1x1x8xf32> {
  %init = tensor.empty() : tensor<8x4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #group, #group, #id],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w, %s, %zp : tensor<8x4x16xi8>, tensor<8x4x1xf32>, tensor<8x4x1xf32>)
      outs(%init : tensor<8x4x16xf32>) {
  ^bb0(%in: i8, %scale: f32, %zero: f32, %out: f32):
    %w32 = arith.extui %in : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %zero, %wf : f32
    %scaled = arith.mulf %scale, %shifted : f32
    linalg.yield %scaled : f32
  } -> tensor<8x4x16xf32>
  %r = linalg.generic {indexing_maps = [#act, #wmap, #res],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %d : tensor<1x1x4x16xf32>, tensor<8x4x16xf32>)
      outs(%acc : tensor<1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.addf %p, %c : f32
    linalg.yield %q : f32
  } -> tensor<1x1x8xf32>
  return %r : tensor<1x1x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{found no dequantization generic}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %dequant, "dequant" : !transform.any_op
    transform.debug.emit_remark_at %contraction, "contraction" : !transform.any_op
    transform.yield
  }
}

// -----

// A loop of size 0 (no groups): nothing to tile, refused before any tiling.

#identity = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#per_group = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#activation = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#weights = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#result = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
func.func @no_groups(%weights: tensor<8x0x16xi8>,
    %scales: tensor<8x0x1xf32>,
    %zero_points: tensor<8x0x1xf32>,
    %x: tensor<1x1x0x16xf32>) -> tensor<1x1x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %result_init = tensor.empty() : tensor<1x1x8xf32>
  %dequant_init = tensor.empty() : tensor<8x0x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%result_init : tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
  %dequant = linalg.generic {
      indexing_maps = [#identity, #per_group, #per_group, #identity],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%weights, %scales, %zero_points : tensor<8x0x16xi8>, tensor<8x0x1xf32>, tensor<8x0x1xf32>)
      outs(%dequant_init : tensor<8x0x16xf32>) {
  ^bb0(%w: i8, %scale: f32, %zero_point: f32, %out: f32):
    %w32 = arith.extui %w : i8 to i32
    %wf = arith.uitofp %w32 : i32 to f32
    %shifted = arith.subf %wf, %zero_point : f32
    %scaled = arith.mulf %shifted, %scale : f32
    linalg.yield %scaled : f32
  } -> tensor<8x0x16xf32>
  // expected-note @below {{contraction}}
  %matvec = linalg.generic {
      indexing_maps = [#activation, #weights, #result],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %dequant : tensor<1x1x0x16xf32>, tensor<8x0x16xf32>)
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
    // expected-error @below {{the contraction has a loop of size 0}}
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
