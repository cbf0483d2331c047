// The consumer's script: qforge's matcher, through the installed library's
// transform.qforge.match_dequant_contraction, annotates what it finds.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %dequant, %contraction = transform.qforge.match_dequant_contraction %root
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %dequant "consumer.dequant" : !transform.any_op
    transform.annotate %contraction "consumer.contraction" : !transform.any_op
    transform.yield
  }
}
