// Execution test of transform.qforge.quantize_activations_and_factor_packed:
// the decode contraction packed in the vpdpbusd layout (16 rows x 4 bytes of
// k; 40 rows padded to 48), the weight pack bubbled through the dequant, the
// integer factoring applied and everything run as loops
// (Inputs/pack-and-factor-int8.mlir). Against the f32 oracle the error is
// the int8 activation quantization's (~3e-3 normalized, docs/numerics.md):
// tolerance 1e-2. (That it matches the unpacked integer strategy, which
// needs AVX512-VNNI: verify-packed-int8-matches-unpacked.mlir.)
// RUN: %gen_kernel 40 3 16 > %t.pad.mlir
// RUN: qforge-bench %t.pad.mlir --script=%S/Inputs/pack-and-factor-int8.mlir --verify --tolerance=1e-2 --time=false | FileCheck %s
// RUN: %gen_kernel 40 3 16 --batch 3 > %t.batch.mlir
// RUN: qforge-bench %t.batch.mlir --script=%S/Inputs/pack-and-factor-int8.mlir --verify --tolerance=1e-2 --time=false | FileCheck %s
// RUN: %gen_kernel 48 3 64 > %t.64.mlir
// RUN: qforge-bench %t.64.mlir --script=%S/Inputs/pack-and-factor-int8.mlir --verify --tolerance=1e-2 --time=false | FileCheck %s

// CHECK: verify: {{.*}}: PASS

// In the IR, the activation is quantized to i8, then i32 partial sums of u8 x s8
// products over the packed weights (row tile, group, k/4, 16 rows, 4 bytes),
// held per (row tile, group, activation rows, row) -- the activation's
// unit rows before the lanes (the 16 rows), the 4 bytes of k inside them.
// RUN: qforge-opt %t.pad.mlir --transform-preload-library=transform-library-paths=%S/Inputs/pack-and-factor-int8.mlir --transform-interpreter | FileCheck %s --check-prefix=IR
// IR:      arith.fptosi %{{.*}} : f32 to i8
// IR:      linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x3x4x4xi8>, tensor<3x3x4x16x4xi8>) outs(%{{.*}} : tensor<3x3x1x1x16xi32>)
// IR:        arith.extui %{{.*}} : i8 to i32
// IR:        arith.extsi %{{.*}} : i8 to i32
// IR:        arith.muli
// IR:        arith.addi
