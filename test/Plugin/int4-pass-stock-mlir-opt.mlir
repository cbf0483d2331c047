// Stock mlir-opt with the qforge plugin loaded as a pass plugin runs the
// input passes, here the 4-bit storage: the i4 weights become byte pairs and
// the function is marked for the driver. (Plugin passes are known only
// after the plugin loads, so they go through --pass-pipeline.)
// RUN: %gen_kernel 8 2 16 --int4 > %t.mlir
// RUN: mlir-opt %t.mlir --load-pass-plugin=%qforge_plugin \
// RUN:   --pass-pipeline="builtin.module(qforge-store-int4-as-byte-pairs)" | FileCheck %s

// CHECK-LABEL: func.func @quantized_matmul(
// CHECK-SAME:    %{{.+}}: tensor<8x2x8xi8>
// CHECK-SAME:    qforge.int4_byte_pairs = array<i64: 0>
// CHECK:         arith.trunci %{{.+}} : i8 to i4
