// qforge-compile --timing: the wall-clock time of each phase, in order, and
// the total (the benchmark script scripts/bench-compile.sh reads them).
// RUN: %gen_kernel 64 2 32 > %t.mlir
// RUN: qforge-compile %t.mlir --timing -o %t.o 2>&1 | FileCheck %s
// CHECK:      compile time by phase (wall clock, s):
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +[0-9.]+%}}  compiling
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +[0-9.]+%}}  reading and normalizing the input
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +[0-9.]+%}}  applying the transform strategy to @quantized_matmul
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +[0-9.]+%}}  lowering @quantized_matmul ({{.*}}) to the LLVM dialect
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +[0-9.]+%}}  translating @quantized_matmul to LLVM IR
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +[0-9.]+%}}  optimizing @quantized_matmul and generating machine code
// CHECK-NEXT: {{ +[0-9]+\.[0-9]+ +100.0%}}  total
// Without it, nothing is printed.
// RUN: qforge-compile %t.mlir -o %t.o 2>&1 | count 0
