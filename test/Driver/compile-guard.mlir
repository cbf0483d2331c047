// A compile that would not finish -- here a user script unrolling a loop of
// four million iterations -- stops within the time bound (--compile-timeout,
// 30 s by default) or the memory bound (--compile-memory-limit, 8 GiB), with
// an error naming the input, the kernel and the phase; no output is written.
// RUN: split-file %s %t

// RUN: not qforge-compile %t/kernel.mlir --script=%t/unroll.mlir --compile-timeout=2 -o %t/out.o 2>&1 | FileCheck %s --check-prefix=TIME
// TIME: qforge-compile: error: {{.*}}kernel.mlir: applying the transform strategy to @fill did not finish within 2 s (--compile-timeout)
// RUN: not ls %t/out.o

// RUN: not qforge-compile %t/kernel.mlir --script=%t/unroll.mlir --compile-memory-limit=200 -o %t/out.o 2>&1 | FileCheck %s --check-prefix=MEMORY
// MEMORY: qforge-compile: error: {{.*}}kernel.mlir: applying the transform strategy to @fill holds {{[0-9]+}} MiB, past 200 MiB (--compile-memory-limit)

// The bench bounds its compile the same way.
// RUN: not qforge-bench %t/kernel.mlir --script=%t/unroll.mlir --compile-timeout=2 2>&1 | FileCheck %s --check-prefix=BENCH
// BENCH: qforge-bench: error: {{.*}}kernel.mlir: applying the transform strategy to @fill did not finish within 2 s

// Without the explosion the same kernel compiles well within the bounds.
// RUN: qforge-compile %t/kernel.mlir --script=%t/nothing.mlir --compile-timeout=30 --compile-memory-limit=2048 -o %t/fine.o
// RUN: ls %t/fine.o

//--- kernel.mlir
func.func @fill(%out: tensor<4194304xf32>) -> tensor<4194304xf32> {
  %zero = arith.constant 0.0 : f32
  %filled = linalg.fill ins(%zero : f32) outs(%out : tensor<4194304xf32>) -> tensor<4194304xf32>
  return %filled : tensor<4194304xf32>
}

//--- unroll.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %module : (!transform.any_op) -> !transform.any_op
    %tiled, %loop = transform.structured.tile_using_for %fill tile_sizes [1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %loop {factor = 4194304} : !transform.any_op
    transform.yield
  }
}

//--- nothing.mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
