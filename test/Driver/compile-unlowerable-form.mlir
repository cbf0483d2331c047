// A script that leaves a form the fixed lowering has no pattern for -- here
// the decode strategy with two rows per tile, whose per-row scale reads
// become a 3-D transfer with a broadcast innermost dim -- gets a diagnostic
// at the kernel and a non-zero exit, not a translation failure.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: sed 's/tile_using_forall %%rows tile_sizes \[1\]/tile_using_forall %%rows tile_sizes [2]/' \
// RUN:   %transforms/decode-factored-avx512.mlir > %t.script.mlir
// RUN: not qforge-compile %t.mlir --script=%t.script.mlir -o %t.o 2>&1 | FileCheck %s

// CHECK: error: the fixed lowering cannot lower 'vector.transfer_read' (docs/lowering.md lists what it handles); change the script so that it does not produce this form
// CHECK: qforge-compile: error: lowering to the LLVM dialect failed (see above)
