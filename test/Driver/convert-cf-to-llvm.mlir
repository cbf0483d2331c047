// qforge-convert-cf-to-llvm: convert-cf-to-llvm with each llvm.func's
// branches lowered on their own, the functions in parallel. The output is
// upstream's: the same pipeline with convert-cf-to-llvm prints the same IR
// (diff), block arguments of converted types included; a cf.assert (which
// adds `abort` and its message to the module) is lowered on the module.
// RUN: qforge-opt %s --split-input-file --qforge-convert-cf-to-llvm | FileCheck %s
// RUN: qforge-opt %s --split-input-file --qforge-convert-cf-to-llvm > %t.ours.mlir
// RUN: qforge-opt %s --split-input-file --convert-cf-to-llvm > %t.upstream.mlir
// RUN: diff %t.ours.mlir %t.upstream.mlir

// CHECK-LABEL: llvm.func @branches(
// CHECK-NOT:     cf.
// CHECK:         llvm.cond_br %{{.*}}, ^bb1(%{{.*}} : i64), ^bb2
// CHECK:       ^bb1(%{{.*}}: i64):
// CHECK:         llvm.br ^bb3
// CHECK:         llvm.switch
llvm.func @branches(%c: i1, %x: i64, %s: i32) -> i64 {
  cf.cond_br %c, ^a(%x : i64), ^b
^a(%v: i64):
  cf.br ^done(%v : i64)
^b:
  cf.switch %s : i32, [
    default: ^done(%x : i64),
    3: ^done(%x : i64)
  ]
^done(%r: i64):
  llvm.return %r : i64
}

// CHECK-LABEL: llvm.func @index_arguments(
// CHECK:         llvm.br ^bb1(%{{.*}} : i64)
// CHECK:       ^bb1(%{{.*}}: i64):
llvm.func @index_arguments(%x: i64) -> i64 {
  %i = builtin.unrealized_conversion_cast %x : i64 to index
  cf.br ^next(%i : index)
^next(%j: index):
  %r = builtin.unrealized_conversion_cast %j : index to i64
  llvm.return %r : i64
}

// -----

// CHECK:       llvm.func @abort()
// CHECK-LABEL: llvm.func @checked(
// CHECK:         llvm.cond_br
// CHECK:         llvm.call @abort()
llvm.func @checked(%c: i1) {
  cf.assert %c, "must hold"
  llvm.return
}
