#!/bin/bash
# Before/after of two changes to the int8 kernels' code (AVX2, Zen 1):
# the fixed lowering reading a block of narrow contiguous rows one row at a
# time (b1fd202), and the byte work around the dot products flattened to
# 1-D with shared activation bytes broadcast as one i32 (the commit after).
# "before": REF_BUILD (a build of 81b1540: bin/qforge-bench and lib/) with
# the transforms of 81b1540; "after": build/ with the working tree's.
# Alternated, two rounds, in one sitting. Run from the repository root.
set -euo pipefail
REF_BUILD=${REF_BUILD:?a build folder of 81b1540}
B=build/bin
ref_transforms=$(mktemp -d)
git archive 81b1540 transforms | tar -x -C "$ref_transforms"
python3 examples/gen_decode_kernel.py 4096 32 128 > /tmp/bw-k8.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 > /tmp/bw-k4.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --batch 32 > /tmp/bw-k8m32.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 --batch 32 > /tmp/bw-k4m32.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 --dynamic > /tmp/bw-k4dyn.mlir
python3 examples/gen_gguf_kernel.py q4_K 4096 4096 > /tmp/bw-q4k.mlir
python3 examples/gen_gguf_kernel.py q4_0 4096 4096 > /tmp/bw-q40.mlir
grep -m1 "model name" /proc/cpuinfo
run() { # label flags...
  local label=$1; shift
  for round in 1 2; do
    for side in before after; do
      echo "## $label side=$side round=$round"
      if [[ $side == before ]]; then
        QFORGE_TRANSFORMS_DIR="$ref_transforms/transforms" LD_LIBRARY_PATH="$REF_BUILD/lib" \
          "$REF_BUILD/bin/qforge-bench" "$@" --min-time-ms=1000 2>&1 | grep -E "^M = |^hot|^cold|^memory read"
      else
        $B/qforge-bench "$@" --min-time-ms=1000 2>&1 | grep -E "^M = |^hot|^cold|^memory read"
      fi
    done
  done
}
run k8-int8 /tmp/bw-k8.mlir --int8-activations
run k8-packed-int8 /tmp/bw-k8.mlir --int8-activations --packed-weights
run k4-int8 /tmp/bw-k4.mlir --int8-activations
run k8m32-int8 /tmp/bw-k8m32.mlir --int8-activations
run k4m32-int8 /tmp/bw-k4m32.mlir --int8-activations
run k4dyn-f32 /tmp/bw-k4dyn.mlir --dim=M=30
run q4_K-int8 /tmp/bw-q4k.mlir --int8-activations
run q4_0-packed-int8 /tmp/bw-q40.mlir --int8-activations --packed-weights
rm -rf "$ref_transforms"
