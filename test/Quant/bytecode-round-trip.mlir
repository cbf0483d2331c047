// Text -> bytecode -> text is identical once the storage is normalized
// (the seed's StableHLO bug: si8 storage did not survive serialization).
// RUN: qforge-opt %s --qforge-normalize-quant-storage -o %t.txt
// RUN: qforge-opt %s --qforge-normalize-quant-storage --emit-bytecode -o %t.bc
// RUN: qforge-opt %t.bc -o %t.back.txt
// RUN: diff %t.txt %t.back.txt
// And the bytecode itself re-serializes to the same bytes.
// RUN: qforge-opt %t.bc --emit-bytecode -o %t.again.bc
// RUN: cmp %t.bc %t.again.bc

func.func @dense_layer(%x: tensor<2x8xf32>,
                       %w: tensor<8x4x!quant.uniform<si8<-127:127>:f32:1, {0.5, 0.25, 1.0, 2.0}>>)
    -> tensor<2x8x!quant.uniform<si8:f32, 0.125:-3>> {
  %q = quant.qcast %x : tensor<2x8xf32> to tensor<2x8x!quant.uniform<si8:f32, 0.125:-3>>
  return %q : tensor<2x8x!quant.uniform<si8:f32, 0.125:-3>>
}
