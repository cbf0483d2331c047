// The fixed lowering handles a strategy variant with two rows per tile,
// whose per-row scale reads become 3-D transfers with a broadcast innermost
// dim (vector<2x1x16xf32> through (d0, d1, 0)): read one element per row,
// broadcast; the strided rank-3 read is unrolled to rank 1. The kernel
// verifies against the reference.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: sed 's/tile_using_forall %%rows tile_sizes \[1\]/tile_using_forall %%rows tile_sizes [2]/' \
// RUN:   %transforms/decode-factored-avx512.mlir > %t.script.mlir
// RUN: grep -q 'tile_sizes \[2\]' %t.script.mlir
// RUN: qforge-bench %t.mlir --script=%t.script.mlir --verify --time=false | FileCheck %s

// CHECK: verify: {{.*}}: PASS
