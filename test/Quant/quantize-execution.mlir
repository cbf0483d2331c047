// The lowered qcast/dcast, run (mlir-runner): round half to even (x.5 ties
// in both directions), saturation to a narrow range [-127, 127], NaN to the
// zero point, unsigned storage saturating at 255, and the dequantized values.
// RUN: qforge-opt %s --qforge-normalize-quant-storage --qforge-lower-quant \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" --convert-linalg-to-loops \
// RUN:   --convert-vector-to-scf --lower-affine --convert-scf-to-cf --expand-strided-metadata \
// RUN:   --finalize-memref-to-llvm --convert-vector-to-llvm --convert-math-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm \
// RUN:   --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

// x / 0.5 = [0.5, 1.5, 2.5, -0.5, -1.5, 200, -200, NaN]; rounded to even
// [0, 2, 2, -0, -2, 200, -200]; + 3; clamped to [-127, 127]; NaN -> 3.
// CHECK: ( 3, 5, 5, 3, 1, 127, -127, 3 )
// Dequantized: (q - 3) * 0.5.
// CHECK-NEXT: ( 0, 1, 1, 0, -1, 62, -65, 0 )
// u8, scale 1, zero point 128: [-1, 127.25, 127.75, 300] -> [127, 255, 255, 255].
// CHECK-NEXT: ( 127, 255, 255, 255 )

func.func @main() {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i8
  %fpad = arith.constant 0.0 : f32
  %x = arith.constant dense<[0.25, 0.75, 1.25, -0.25, -0.75, 100.0, -100.0, 0x7FC00000]> : tensor<8xf32>
  %q = quant.qcast %x : tensor<8xf32> to tensor<8x!quant.uniform<i8<-127:127>:f32, 0.5:3>>
  %i = quant.scast %q : tensor<8x!quant.uniform<i8<-127:127>:f32, 0.5:3>> to tensor<8xi8>
  %v = vector.transfer_read %i[%c0], %pad : tensor<8xi8>, vector<8xi8>
  vector.print %v : vector<8xi8>
  %d = quant.dcast %q : tensor<8x!quant.uniform<i8<-127:127>:f32, 0.5:3>> to tensor<8xf32>
  %w = vector.transfer_read %d[%c0], %fpad : tensor<8xf32>, vector<8xf32>
  vector.print %w : vector<8xf32>
  %y = arith.constant dense<[-1.0, 127.25, 127.75, 300.0]> : tensor<4xf32>
  %u = quant.qcast %y : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 1.0:128>>
  %ui = quant.scast %u : tensor<4x!quant.uniform<u8:f32, 1.0:128>> to tensor<4xi8>
  %uv = vector.transfer_read %ui[%c0], %pad : tensor<4xi8>, vector<4xi8>
  %uw = arith.extui %uv : vector<4xi8> to vector<4xi32>
  vector.print %uw : vector<4xi32>
  return
}
