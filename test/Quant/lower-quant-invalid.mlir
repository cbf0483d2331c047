// qforge-lower-quant refuses what it cannot lower, naming the type.
// RUN: qforge-opt %s --split-input-file --qforge-lower-quant --verify-diagnostics

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @below {{cannot lower 'tensor<?x!quant.uniform<i8:f32, 5.000000e-01>>': only static shapes are supported}}
  %q = quant.qcast %x : tensor<?xf32> to tensor<?x!quant.uniform<i8:f32, 0.5>>
  return %q : tensor<?x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @sub_channel(%x: tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0:2}, {4.0:3, 5.0:4}}>> {
  // expected-error @below {{quantizing to sub-channel types is not supported yet (dequantizing is)}}
  %q = quant.qcast %x : tensor<2x4xf32> to tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0:2}, {4.0:3, 5.0:4}}>>
  return %q : tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0:2}, {4.0:3, 5.0:4}}>>
}

// -----

func.func @scalar(%x: f32) -> !quant.uniform<i8:f32, 0.5> {
  // expected-error @below {{cannot lower '!quant.uniform<i8:f32, 5.000000e-01>': only ranked tensors of quantized values are supported}}
  %q = quant.qcast %x : f32 to !quant.uniform<i8:f32, 0.5>
  return %q : !quant.uniform<i8:f32, 0.5>
}

// -----

// Storage wider than 32 bits: the quant dialect itself refuses the type.
// expected-error @+1 {{illegal storage type size: 64}}
func.func @wide(%x: tensor<4xf64>) -> tensor<4x!quant.uniform<i64:f64, 0.5>>

// -----

// An expressed type that does not match the float operand: refused by the
// op's verifier, at the op.
func.func @mismatch(%x: tensor<4xf16>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @below {{expressed type in quantized type expected to match float type}}
  %q = quant.qcast %x : tensor<4xf16> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %q : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// A call passing a quantized value: the callee's signature becomes storage
// integers, the call site would not match; refused.
func.func private @consume(tensor<4x!quant.uniform<i8:f32, 0.5>>)
func.func @caller(%x: tensor<4xf32>) {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  // expected-error @below {{cannot lower a call passing 'tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>': calls with quantized operands or results are not supported (inline the callee first)}}
  func.call @consume(%q) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> ()
  return
}
