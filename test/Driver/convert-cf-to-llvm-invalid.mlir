// RUN: qforge-opt %s --split-input-file --qforge-convert-cf-to-llvm --verify-diagnostics

// A branch whose operand has no LLVM type (a tensor) fails as upstream's
// convert-cf-to-llvm does: at the branch, located, whether the function is
// converted on its own (an llvm.func: in parallel) or with the module.
llvm.func @tensor_branch(%x: i64) {
  %t = builtin.unrealized_conversion_cast %x : i64 to tensor<2xf32>
  // expected-error @below {{failed to legalize operation 'cf.br' that was explicitly marked illegal}}
  cf.br ^b(%t : tensor<2xf32>)
^b(%u: tensor<2xf32>):
  llvm.return
}

// -----

// Outside an llvm.func (the module-level part of the pass).
func.func @in_func(%x: i64) {
  %t = builtin.unrealized_conversion_cast %x : i64 to tensor<2xf32>
  // expected-error @below {{failed to legalize operation 'cf.br' that was explicitly marked illegal}}
  cf.br ^b(%t : tensor<2xf32>)
^b(%u: tensor<2xf32>):
  return
}
