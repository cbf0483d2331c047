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

// The tools merge before they parse the module themselves: the child that
// reads an input apart (lib/Driver/InputCheck.h) merges what it read and
// prints it, generic with every location in the file, so the tool parses
// one layer, not three, and its diagnostics still quote the file's lines.
// RUN: qforge-compile --qforge-read-check=%t.mlir --qforge-read-check-output=%t.child.mlir --qforge-read-check-merge
// RUN: FileCheck %s --check-prefix=CHILD < %t.child.mlir
// CHILD:         "func.call"({{.*}}) <{callee = @decoder_layer_layer0}>
// CHILD:         "func.call"({{.*}}) <{callee = @decoder_layer_layer0}>
// CHILD:         "func.call"({{.*}}) <{callee = @decoder_layer_layer0}>
// CHILD:         sym_name = "decoder_layer_layer0"
// CHILD-NOT:     decoder_layer_layer{{[12]}}
// CHILD:         loc("{{.*}}merge-identical-functions.mlir.tmp.mlir":{{[0-9]+}}:{{[0-9]+}})
// A text file with nothing to merge is read by the tool as it is: the
// child writes nothing (and ends with a status of its own, not 0).
// RUN: %python %examples/gen_decoder_layer.py --hidden 64 --intermediate 128 --group 32 > %t.one.mlir
// RUN: rm -f %t.one.out
// RUN: not qforge-compile --qforge-read-check=%t.one.mlir --qforge-read-check-output=%t.one.out --qforge-read-check-merge
// RUN: not cat %t.one.out
// A diagnostic on the merged module still quotes the file's own line: a
// CPU without AVX2 has no strategy for the layer's matmuls.
// RUN: not qforge-compile %t.mlir --mcpu=core2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUOTED
// QUOTED: merge-identical-functions.mlir.tmp.mlir:[[LINE:[0-9]+]]:{{[0-9]+}}: error:
// QUOTED-NEXT: {{^ +%.+ = linalg.generic}}
// Without the flag the child leaves the functions as they are.
// RUN: qforge-compile --qforge-read-check=%t.mlir --qforge-read-check-output=%t.child-all.mlir
// RUN: FileCheck %s --check-prefix=CHILD-ALL < %t.child-all.mlir
// CHILD-ALL:     sym_name = "decoder_layer_layer2"

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
