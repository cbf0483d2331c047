// The StableHLO issue's fake-quantized conv2d and dense layers (si8 storage,
// examples/stablehlo_seed_*.mlir) compile -- from text and from bytecode --
// and verify against the reference, which applies the same quantization
// semantics (docs/quantization.md) with every linalg op as loops.
// RUN: qforge-bench %examples/stablehlo_seed_conv2d.mlir --script=%transforms/loops.mlir --verify --time=false | FileCheck %s
// RUN: qforge-bench %examples/stablehlo_seed_dense.mlir --script=%transforms/loops.mlir --verify --time=false | FileCheck %s
// RUN: qforge-opt %examples/stablehlo_seed_conv2d.mlir --emit-bytecode -o %t.conv2d.mlirbc
// RUN: qforge-bench %t.conv2d.mlirbc --script=%transforms/loops.mlir --verify --time=false | FileCheck %s
// RUN: qforge-compile %examples/stablehlo_seed_dense.mlir --script=%transforms/loops.mlir --emit=mlir -o - | FileCheck %s --check-prefix=DENSE

// CHECK: verify: {{.*}}: PASS
// DENSE-LABEL: func.func @dense_layer
// DENSE-SAME:    (%{{.+}}: tensor<10xf32>, %{{.+}}: tensor<10x5xf32>, %{{.+}}: tensor<3x5xf32>) -> tensor<3x10xf32>
// DENSE:         math.roundeven
// DENSE:         arith.fptosi %{{.+}} : f32 to i8
// DENSE:         linalg.matmul
// DENSE-NOT:     quant.
