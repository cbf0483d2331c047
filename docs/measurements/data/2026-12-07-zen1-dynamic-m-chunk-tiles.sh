#!/bin/bash
# The dynamic-M kernel 4096x32x128 with the AVX2 rows' chunk plans: "new"
# (chunk_tiles [1] / [2], the shipped table from 2026-12-07) against "old"
# (16 and 4 tiles, the default) through a tuning file, alternated, three
# rounds. Run from the repository root after building.
set -euo pipefail
B=build/bin
dir=docs/measurements/data
python3 examples/gen_decode_kernel.py 4096 32 128 --dynamic > /tmp/dyn.mlir
sed "s#TRANSFORMS/#$PWD/transforms/#" $dir/2026-12-07-zen1-dynamic-m-chunk-tiles-old.json > /tmp/old-chunks.json
for round in 1 2 3; do
  for plan in new old; do
    extra=""; [[ $plan == old ]] && extra="--strategy-table=/tmp/old-chunks.json"
    echo "## f32 plan=$plan round=$round"
    $B/qforge-bench /tmp/dyn.mlir $extra --dim=M=30,48,96 --min-time-ms=1500 2>&1 | grep -E "^M = |^hot|^cold"
    echo "## int8 plan=$plan round=$round"
    $B/qforge-bench /tmp/dyn.mlir --int8-activations $extra --dim=M=48,128 --min-time-ms=1500 2>&1 | grep -E "^M = |^hot|^cold"
  done
done
