// qforge-lower-quant: the exact arithmetic of quant.qcast and quant.dcast.
// RUN: qforge-opt %s --split-input-file --qforge-normalize-quant-storage --qforge-lower-quant | FileCheck %s
// RUN: qforge-opt %s --split-input-file --qforge-normalize-quant-storage --qforge-lower-quant=allow-folding-round-trips | FileCheck %s --check-prefix=FOLD

// Per-tensor qcast, signed 8-bit: x / scale, round half to even, + zero
// point, clamp to [-128, 127], NaN -> zero point, then the exact conversion.
// The quantized result at the boundary becomes its storage tensor.

// CHECK-LABEL: func.func @quantize_per_tensor
// CHECK-SAME:    (%[[X:.+]]: tensor<4xf32>) -> tensor<4xi8>
// CHECK-DAG:     %[[SCALE:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[ZP:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-DAG:     %[[LOW:.+]] = arith.constant -1.280000e+02 : f32
// CHECK-DAG:     %[[HIGH:.+]] = arith.constant 1.270000e+02 : f32
// CHECK:         %[[Q:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%{{.+}} : tensor<4xi8>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %{{.+}}: i8):
// CHECK-NEXT:      %[[DIV:.+]] = arith.divf %[[IN]], %[[SCALE]] : f32
// CHECK-NEXT:      %[[ROUND:.+]] = math.roundeven %[[DIV]] : f32
// CHECK-NEXT:      %[[SHIFT:.+]] = arith.addf %[[ROUND]], %[[ZP]] : f32
// CHECK-NEXT:      %[[MAX:.+]] = arith.maximumf %[[SHIFT]], %[[LOW]] : f32
// CHECK-NEXT:      %[[MIN:.+]] = arith.minimumf %[[MAX]], %[[HIGH]] : f32
// CHECK-NEXT:      %[[NAN:.+]] = arith.cmpf uno, %[[IN]], %[[IN]] : f32
// CHECK-NEXT:      %[[SEL:.+]] = arith.select %[[NAN]], %[[ZP]], %[[MIN]] : f32
// CHECK-NEXT:      %[[INT:.+]] = arith.fptosi %[[SEL]] : f32 to i8
// CHECK-NEXT:      linalg.yield %[[INT]] : i8
// CHECK:         return %[[Q]] : tensor<4xi8>
func.func @quantize_per_tensor(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<si8:f32, 0.5:3>> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<si8:f32, 0.5:3>>
  return %q : tensor<4x!quant.uniform<si8:f32, 0.5:3>>
}

// -----

// Narrow range: the clamp uses the type's [-127, 127].

// CHECK-LABEL: func.func @quantize_narrow_range
// CHECK-DAG:     arith.constant -1.270000e+02 : f32
// CHECK-DAG:     arith.constant 1.270000e+02 : f32
// CHECK-NOT:     arith.constant -1.280000e+02 : f32
// CHECK:         arith.fptosi %{{.+}} : f32 to i8
func.func @quantize_narrow_range(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<si8<-127:127>:f32, 0.25>> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<si8<-127:127>:f32, 0.25>>
  return %q : tensor<4x!quant.uniform<si8<-127:127>:f32, 0.25>>
}

// -----

// Unsigned storage: [0, 255] and an unsigned conversion.

// CHECK-LABEL: func.func @quantize_unsigned
// CHECK-DAG:     arith.constant 0.000000e+00 : f32
// CHECK-DAG:     arith.constant 2.550000e+02 : f32
// CHECK:         arith.fptoui %{{.+}} : f32 to i8
func.func @quantize_unsigned(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.5:128>> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 0.5:128>>
  return %q : tensor<4x!quant.uniform<u8:f32, 0.5:128>>
}

// -----

// 32-bit storage: 2^31 - 1 is not an f32; the upper bound is the largest f32
// below it (rounded toward zero), so the conversion never overflows.

// CHECK-LABEL: func.func @quantize_i32
// CHECK-DAG:     arith.constant -2.14748365E+9 : f32
// CHECK-DAG:     arith.constant 2.14748352E+9 : f32
// CHECK:         arith.fptosi %{{.+}} : f32 to i32
func.func @quantize_i32(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<i32:f32, 0.5>> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i32:f32, 0.5>>
  return %q : tensor<4x!quant.uniform<i32:f32, 0.5>>
}

// -----

// Per-axis (axis 1): scales and zero-points become constants read along the
// quantized dimension.

// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[AXIS:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @dequantize_per_axis
// CHECK-SAME:    (%[[Q:.+]]: tensor<2x4xi8>) -> tensor<2x4xf32>
// CHECK-DAG:     %[[SCALES:.+]] = arith.constant dense<[5.000000e-01, 2.500000e-01, 1.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK-DAG:     %[[ZPS:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[AXIS]], #[[AXIS]], #[[ID]]]
// CHECK-SAME:      ins(%[[Q]], %[[SCALES]], %[[ZPS]] : tensor<2x4xi8>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: i8, %[[S:.+]]: f32, %[[Z:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[F:.+]] = arith.sitofp %[[IN]] : i8 to f32
// CHECK-NEXT:      %[[D:.+]] = arith.subf %[[F]], %[[Z]] : f32
// CHECK-NEXT:      %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @dequantize_per_axis(%q: tensor<2x4x!quant.uniform<si8:f32:1, {0.5:1, 0.25:2, 1.0:3, 2.0:4}>>) -> tensor<2x4xf32> {
  %d = quant.dcast %q : tensor<2x4x!quant.uniform<si8:f32:1, {0.5:1, 0.25:2, 1.0:3, 2.0:4}>> to tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}

// -----

// Unsigned dequantize converts with uitofp.

// CHECK-LABEL: func.func @dequantize_unsigned
// CHECK:         arith.uitofp %{{.+}} : i8 to f32
func.func @dequantize_unsigned(%q: tensor<4x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<4xf32> {
  %d = quant.dcast %q : tensor<4x!quant.uniform<u8:f32, 0.5:128>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// A fake-quantized (QDQ) pair is kept: quantize, then dequantize the
// integers -- unless the user allows folding it away.

// CHECK-LABEL: func.func @fake_quant
// CHECK:         %[[Q:.+]] = linalg.generic
// CHECK:           math.roundeven
// CHECK:           arith.fptosi
// CHECK:         %[[D:.+]] = linalg.generic {{.*}} ins(%[[Q]] : tensor<4xi8>)
// CHECK:           arith.sitofp
// CHECK:         return %[[D]]
// FOLD-LABEL: func.func @fake_quant
// FOLD-SAME:    (%[[X:.+]]: tensor<4xf32>)
// FOLD-NOT:     linalg.generic
// FOLD:         return %[[X]] : tensor<4xf32>
func.func @fake_quant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<si8:f32, 0.5:3>>
  %d = quant.dcast %q : tensor<4x!quant.uniform<si8:f32, 0.5:3>> to tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Sub-channel with unsigned storage: zero-points of 128 and more are read as
// unsigned (200 stays 200, 255 stays 255), as for per-tensor and per-axis.

// CHECK-LABEL: func.func @dequantize_sub_channel_unsigned
// CHECK:         arith.constant dense<{{\[\[\[}}2.000000e+02], [3.000000e+00]], {{\[\[}}2.550000e+02], [1.280000e+02]]]> : tensor<2x2x1xf32>
// CHECK:         arith.uitofp %{{.+}} : i8 to f32
func.func @dequantize_sub_channel_unsigned(%q: tensor<2x4x!quant.uniform<u8:f32:{0:1, 1:2}, {{0.5:200, 0.25:3}, {1.0:255, 2.0:128}}>>) -> tensor<2x4xf32> {
  %d = quant.dcast %q : tensor<2x4x!quant.uniform<u8:f32:{0:1, 1:2}, {{0.5:200, 0.25:3}, {1.0:255, 2.0:128}}>> to tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}
