#!/usr/bin/env bash
# Packed int8 decode on AVX2 (Zen 1): the old row (16-row lines, the group's
# 32 k steps unrolled whole) against the new one (8-row lines, 4 k steps per
# iteration) and the unpacked int8 decode, interleaved in one qforge-ab
# process. OLD_TRANSFORMS: a checkout of the previous commit's transforms/.
set -euo pipefail
repo="${REPO:-/work/main}"
old="${OLD_TRANSFORMS:?set OLD_TRANSFORMS to the previous commit transforms folder}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
model_name="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
family="$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2)"
echo "machine:$model_name (family$family), $(nproc) vCPUs; $(date -u +%FT%TZ)"
for shape in "4096 32 128" "11008 32 128" "4096 86 128"; do
  read -r n g k <<< "$shape"
  python3 "$repo/examples/gen_decode_kernel.py" "$n" "$g" "$k" > "$work/k.mlir"
  "$repo/build/bin/qforge-compile" "$work/k.mlir" --int8-activations --emit=shared -o "$work/int8.so"
  QFORGE_TRANSFORMS_DIR="$old" "$repo/build/bin/qforge-compile" "$work/k.mlir" --int8-activations --packed-weights --emit=shared -o "$work/packed-old.so"
  "$repo/build/bin/qforge-compile" "$work/k.mlir" --int8-activations --packed-weights --emit=shared -o "$work/packed-new.so"
  for threads in ${THREADS:-1 2}; do
    echo "== $n x $g x $k, $threads thread(s): int8.so packed-old.so packed-new.so"
    OMP_NUM_THREADS=$threads "$repo/build/bin/qforge-ab" "$n" "$g" "$k" "$work/int8.so" "$work/packed-old.so" "$work/packed-new.so"
  done
done
