// The strategy for kernels no shipped strategy fits: it changes nothing, so
// the fixed lowering (docs/lowering.md) runs every linalg op as scalar
// loops. Correct for any kernel qforge accepts; fast for none. Used for the
// small fake-quantized layers in examples/ and as a starting point.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
