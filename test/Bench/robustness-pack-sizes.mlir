// Row 2 of the reliability issue's fuzz table: a user's edit of a packed
// strategy's pack sizes (the 4-bit prefill's [0, 5, 64, 0, 0, 0] ->
// [0, 5, 64, 0, 2, 0], Inputs/prefill-int4-k-tile-2.mlir) unrolls into
// code LLVM's scheduler works on for minutes; the compile guard stops it
// with a diagnostic naming the phase (on this build LLVM's, optimizing or
// generating code; under load or a sanitizer an earlier one), and no object is left. The target is
// pinned (znver5, 5 tokens: 10 s of code generation on an Intel Xeon host
// of this project, 5x the bound): with the host's own model, an Intel
// Xeon's scheduler finished the 3-token kernel in 2 s, inside the bound.
// REQUIRES: avx512f
// RUN: %gen_kernel 64 2 64 --int4 --batch 5 > %t.mlir
// RUN: not qforge-compile %t.mlir --script=%S/Inputs/prefill-int4-k-tile-2.mlir --mcpu=znver5 --max-block-ops=0 --compile-timeout=2 -o %t.o 2>&1 | FileCheck %s
// CHECK: qforge-compile: error: {{.*}}.mlir: {{.+}} did not finish within 2 s (--compile-timeout)
// The bound on a block's length (--max-block-ops) refuses it before any of
// that, at once: its unrolled k loop is one block of about 840000 register
// operations.
// RUN: not qforge-compile %t.mlir --script=%S/Inputs/prefill-int4-k-tile-2.mlir --mcpu=znver5 -o %t.o 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK: .mlir:27:13: error: a block of straight-line code would be about {{[0-9]+}} register operations, more than 32768 (--max-block-ops)
// RUN: not ls %t.o
