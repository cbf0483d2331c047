// qforge-compile normalizes and lowers quantized types on input, from text
// and from bytecode alike: the kernel's si8 parameters become i8 storage
// tensors and the qcast/dcast their integer arithmetic before the script
// runs (here a script that changes nothing).
// RUN: split-file %s %t
// RUN: qforge-compile %t/layer.mlir --script=%t/nothing.mlir --emit=mlir -o - | FileCheck %s
// RUN: qforge-opt %t/layer.mlir --emit-bytecode -o %t/layer.mlirbc
// RUN: qforge-compile %t/layer.mlirbc --script=%t/nothing.mlir --emit=mlir -o - | FileCheck %s
// And the whole kernel runs: the bench verifies it against its reference.
// RUN: qforge-bench %t/layer.mlirbc --script=%t/nothing.mlir --verify --time=false | FileCheck %s --check-prefix=RUNS

// CHECK-LABEL: func.func @fake_quantized_dense
// CHECK-SAME:    (%{{.+}}: tensor<2x8xf32>, %{{.+}}: tensor<8x4xi8>) -> tensor<2x4xf32>
// CHECK:         math.roundeven
// CHECK:         arith.sitofp %{{.+}} : i8 to f32
// CHECK:         linalg.matmul
// CHECK-NOT:     quant.
// RUNS: verify: {{.*}}: PASS

//--- layer.mlir
func.func @fake_quantized_dense(%x: tensor<2x8xf32>,
    %w: tensor<8x4x!quant.uniform<si8<-127:127>:f32:1, {0.5, 0.25, 1.0, 2.0}>>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %xq = quant.qcast %x : tensor<2x8xf32> to tensor<2x8x!quant.uniform<si8:f32, 0.125:-3>>
  %xd = quant.dcast %xq : tensor<2x8x!quant.uniform<si8:f32, 0.125:-3>> to tensor<2x8xf32>
  %wd = quant.dcast %w : tensor<8x4x!quant.uniform<si8<-127:127>:f32:1, {0.5, 0.25, 1.0, 2.0}>> to tensor<8x4xf32>
  %init = tensor.empty() : tensor<2x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%xd, %wd : tensor<2x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

//--- nothing.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
