// qforge-merge-identical-functions: a model of N layer functions that
// differ only in their names keeps one; every call names it. Functions that
// differ (a constant, a type) stay apart; public ones are kept as they are.
// The driver runs this on every input, so a 3-layer model outlines one
// layer's seven matmuls, and compiles three: identical pairs (q, k, v and o;
// gate and up) compile once and are called from each site.
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 --layers 3 > %t.mlir
// RUN: qforge-opt %t.mlir --qforge-merge-identical-functions | FileCheck %s
// CHECK-LABEL: func.func @decoder_layer(
// CHECK:         call @decoder_layer_layer0(%arg0, %arg1, %arg2,
// CHECK:         call @decoder_layer_layer0(%{{.+}}#3, %arg1, %arg23,
// CHECK:         call @decoder_layer_layer0(%{{.+}}#3, %arg1, %arg44,
// CHECK-LABEL: func.func private @decoder_layer_layer0(
// CHECK-NOT:   func.func private @decoder_layer_layer{{[12]}}(
// RUN: qforge-compile %t.mlir --emit=mlir -o - | FileCheck %s --check-prefix=COMPILED
// COMPILED-COUNT-4: call @decoder_layer_layer0_qmm0(
// COMPILED-COUNT-2: call @decoder_layer_layer0_qmm4(
// COMPILED:         call @decoder_layer_layer0_qmm6(
// COMPILED-NOT: @decoder_layer_layer1
// COMPILED-NOT: @decoder_layer_layer0_qmm{{[1235]}}(

// RUN: qforge-opt %s --split-input-file --qforge-merge-identical-functions | FileCheck %s --check-prefix=APART

// APART-LABEL: func.func @two_constants(
// APART: call @add_one(
// APART: call @add_two(
func.func @two_constants(%x: f32) -> f32 {
  %a = call @add_one(%x) : (f32) -> f32
  %b = call @add_two(%a) : (f32) -> f32
  return %b : f32
}
func.func private @add_one(%x: f32) -> f32 {
  %c = arith.constant 1.0 : f32
  %r = arith.addf %x, %c : f32
  return %r : f32
}
func.func private @add_two(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %r = arith.addf %x, %c : f32
  return %r : f32
}

// -----

// APART-LABEL: func.func @public_twins(
// APART: call @twin_a(
// APART: call @twin_a(
// APART-LABEL: func.func @exported(
// APART-LABEL: func.func @exported_too(
func.func @public_twins(%x: f32) -> f32 {
  %a = call @twin_a(%x) : (f32) -> f32
  %b = call @twin_b(%a) : (f32) -> f32
  return %b : f32
}
func.func private @twin_a(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
func.func private @twin_b(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
func.func @exported(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
func.func @exported_too(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
