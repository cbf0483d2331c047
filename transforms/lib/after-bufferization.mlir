// Script library: the step of the int8-activation strategies run by an
// entry script's @qforge_after_bufferization (the prefetches, whose
// distances are each target's numbers, stay in the entry scripts).
module attributes {transform.with_named_sequence} {
  // u8 x s8 products summed 4 per i32 lane become one vpdpbusd each. It
  // runs after bufferization: the vpdpbusd is an LLVM intrinsic call, which
  // bufferization's analysis does not accept. Then the reductions left
  // (one f32 sum of the lanes per row, group sums) are lowered one pattern
  // set at a time and reassociated into trees, as in the f32 strategies.
  // Returns the kernel function.
  transform.named_sequence @x86_int8_dot_products_and_reductions(%module: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %func = transform.structured.match ops{["func.func"]} in %module : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.x86_int8_dot_products
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.vector.lower_shape_cast
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.qforge.reassociate_fp_reductions
    } : !transform.any_op
    transform.yield %func : !transform.any_op
  }
}
