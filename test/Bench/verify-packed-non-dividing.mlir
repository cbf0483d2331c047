// Execution test: the decode contraction packed with tiles that divide
// neither N (rows 8 on N = 36 and N = 20) nor, in the second kernel, the
// group (k tile 8 on groups of 12), the weight pack bubbled through the
// dequant (test/Bench/Inputs/pack-and-bubble.mlir). Padded rows are cut by
// the unpack; padded k lanes meet zero-padded activations. The scale's
// broadcast dim has an outer range of 2 (k = 16 in tiles of 8). Compared
// with the scalar reference of the unpacked kernel; normalized error within
// 1e-6 (the packed loops sum in the reference's order).
// RUN: %gen_kernel 36 3 16 > %t.rows.mlir
// RUN: qforge-bench %t.rows.mlir --script=%S/Inputs/pack-and-bubble.mlir --verify --tolerance=1e-6 --time=false | FileCheck %s
// RUN: %gen_kernel 20 3 12 --signed > %t.k.mlir
// RUN: qforge-bench %t.k.mlir --script=%S/Inputs/pack-and-bubble.mlir --verify --tolerance=1e-6 --time=false | FileCheck %s
// RUN: qforge-opt %t.k.mlir --transform-preload-library=transform-library-paths=%S/Inputs/pack-and-bubble.mlir --transform-interpreter | FileCheck %s --check-prefix=IR

// CHECK: verify: {{.*}}: PASS

// The parameters are packed (and padded with zeros), not the f32
// dequantized weights; no poison anywhere.
// IR-NOT: ub.poison
// IR-DAG: linalg.pack %arg0 padding_value(%{{.*}} : i8) inner_dims_pos = [0, 1, 2] inner_tiles = [8, 1, 8] {{.*}} : tensor<20x3x12xi8> -> tensor<3x3x2x8x1x8xi8>
// IR-DAG: linalg.pack %arg1 padding_value(%{{.*}} : f32) inner_dims_pos = [0, 1, 2] inner_tiles = [8, 1, 1] {{.*}} : tensor<20x3x1xf32> -> tensor<3x3x1x8x1x1xf32>
// IR-NOT: tensor<20x3x12xf32>
