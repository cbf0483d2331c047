// The fixed lowering handles a strategy variant with two rows per tile,
// whose per-row scale reads become 3-D transfers with a broadcast innermost
// dim (vector<2x1x16xf32> through (d0, d1, 0)): read one element per row,
// broadcast; the strided rank-3 read is unrolled to rank 1. The kernel
// verifies against the reference.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// The rows' sums are tiled in the script library (lib/decode.mlir): the
// variant is a copy of transforms/ with that tile size changed.
// RUN: rm -rf %t.transforms && cp -r %transforms %t.transforms
// RUN: sed -i 's/tile_using_forall %%rows tile_sizes \[1\]/tile_using_forall %%rows tile_sizes [2]/' \
// RUN:   %t.transforms/lib/decode.mlir
// RUN: grep -q '%%rows tile_sizes \[2\]' %t.transforms/lib/decode.mlir
// RUN: env QFORGE_TRANSFORMS_DIR=%t.transforms qforge-bench %t.mlir \
// RUN:   --strategy-row=decode-f32/16-lanes --verify --time=false | FileCheck %s

// CHECK: verify: {{.*}}: PASS
