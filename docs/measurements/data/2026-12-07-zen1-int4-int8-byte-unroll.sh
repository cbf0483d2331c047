#!/bin/bash
# decode-packed-int4-int8 on AVX2: "new" (the shipped table from
# 2026-12-07: row avx2, byte_unroll 2) against "old" (byte_unroll 32, the
# whole chunk, as before the row) through a tuning file, alternated, three
# rounds; then each kernel's compile time. Run from the repository root
# after building.
set -euo pipefail
B=build/bin
dir=docs/measurements/data
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 > /tmp/bu-seed.mlir
python3 examples/gen_decode_kernel.py 11008 32 128 --int4 > /tmp/bu-11008.mlir
python3 examples/gen_decode_kernel.py 4096 86 128 --int4 > /tmp/bu-4096x11008.mlir
python3 examples/gen_gguf_kernel.py q4_0 4096 4096 > /tmp/bu-q4_0.mlir
sed "s#TRANSFORMS/#$PWD/transforms/#" $dir/2026-12-07-zen1-int4-int8-byte-unroll-old.json > /tmp/bu-old.json
grep -m1 "model name" /proc/cpuinfo
for round in 1 2 3; do
  for k in seed 11008 4096x11008 q4_0; do
    extra=""; [[ $k == q4_0 ]] && extra="--packed-weights"
    for plan in new old; do
      table=""; [[ $plan == old ]] && table="--strategy-table=/tmp/bu-old.json"
      echo "## $k plan=$plan round=$round"
      $B/qforge-bench /tmp/bu-$k.mlir --int8-activations $extra $table --min-time-ms=1500 2>&1 |
        grep -E "^hot|^cold|^memory read|^arithmetic"
    done
  done
done
for k in seed 11008 4096x11008 q4_0; do
  extra=""; [[ $k == q4_0 ]] && extra="--packed-weights"
  for plan in new old; do
    table=""; [[ $plan == old ]] && table="--strategy-table=/tmp/bu-old.json"
    best=""
    for _ in 1 2 3; do
      s=$(date +%s.%N); $B/qforge-compile /tmp/bu-$k.mlir --int8-activations $extra $table -o /tmp/bu.o; e=$(date +%s.%N)
      best=$(python3 -c "t = $e - $s; b = '$best'; print(f'{min(t, float(b)) if b else t:.2f}')")
    done
    echo "## compile $k plan=$plan best of 3: $best s"
  done
done
