// qforge-normalize-quant-storage: signed storage (si8) becomes signless i8
// with the Signed flag, wherever the type occurs. Text prints both as i8, so
// the checks compare bytecode (which encodes the storage type itself),
// without locations (they name the file).
// RUN: split-file %s %t

// si8 and i8 versions of the same module are identical after normalization,
// and were not before.
// RUN: qforge-opt %t/signed.mlir --qforge-normalize-quant-storage --strip-debuginfo --emit-bytecode -o %t/signed.bc
// RUN: qforge-opt %t/signless.mlir --qforge-normalize-quant-storage --strip-debuginfo --emit-bytecode -o %t/signless.bc
// RUN: cmp %t/signed.bc %t/signless.bc
// RUN: qforge-opt %t/signed.mlir --strip-debuginfo --emit-bytecode -o %t/signed-raw.bc
// RUN: not cmp -s %t/signed-raw.bc %t/signless.bc

// Idempotent: normalizing the normalized module changes nothing.
// RUN: qforge-opt %t/signed.bc --qforge-normalize-quant-storage --strip-debuginfo --emit-bytecode -o %t/twice.bc
// RUN: cmp %t/signed.bc %t/twice.bc

// Unsigned storage (u8) is kept unsigned.
// RUN: qforge-opt %t/unsigned.mlir --qforge-normalize-quant-storage | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED: func.func @unsigned(%{{.*}}: tensor<4x!quant.uniform<u8:f32, 5.000000e-01:3>>)

// What the signed module reads as after normalization.
// RUN: qforge-opt %t/signed.mlir --qforge-normalize-quant-storage | FileCheck %s
// CHECK-LABEL: func.func @quantized
// CHECK-SAME:    (%{{.*}}: tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>, %{{.*}}: tensor<2x4x!quant.uniform<i8<-127:127>:f32:1, {{.*}}>>)
// CHECK-SAME:    attributes {weights = tensor<8x!quant.uniform<i4:f32, 2.500000e-01>>}
// CHECK:         scf.execute_region -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>

//--- signed.mlir
func.func @quantized(%x: tensor<4x!quant.uniform<si8:f32, 0.5:3>>,
                     %w: tensor<2x4x!quant.uniform<si8<-127:127>:f32:1, {0.5, 0.25, 1.0, 2.0}>>)
    -> (tensor<4xf32>, tensor<4x!quant.uniform<si8:f32, 0.5:3>>)
    attributes {weights = tensor<8x!quant.uniform<si4:f32, 0.25>>} {
  %d = quant.dcast %x : tensor<4x!quant.uniform<si8:f32, 0.5:3>> to tensor<4xf32>
  %r = scf.execute_region -> tensor<4x!quant.uniform<si8:f32, 0.5:3>> {
    scf.yield %x : tensor<4x!quant.uniform<si8:f32, 0.5:3>>
  }
  return %d, %r : tensor<4xf32>, tensor<4x!quant.uniform<si8:f32, 0.5:3>>
}

//--- signless.mlir
func.func @quantized(%x: tensor<4x!quant.uniform<i8:f32, 0.5:3>>,
                     %w: tensor<2x4x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25, 1.0, 2.0}>>)
    -> (tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:3>>)
    attributes {weights = tensor<8x!quant.uniform<i4:f32, 0.25>>} {
  %d = quant.dcast %x : tensor<4x!quant.uniform<i8:f32, 0.5:3>> to tensor<4xf32>
  %r = scf.execute_region -> tensor<4x!quant.uniform<i8:f32, 0.5:3>> {
    scf.yield %x : tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  }
  return %d, %r : tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:3>>
}

//--- unsigned.mlir
func.func @unsigned(%x: tensor<4x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<4xf32> {
  %d = quant.dcast %x : tensor<4x!quant.uniform<u8:f32, 0.5:3>> to tensor<4xf32>
  return %d : tensor<4xf32>
}
