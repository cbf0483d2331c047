#!/bin/bash
# Before/after of the integer prefills' activation pack as row shuffles and
# a transpose of 4-byte words (TransposeAsShuffle.cpp) instead of one
# shuffle of the whole block (AVX2, Zen 1). "before": REF_BUILD (a build of
# 8b18170: bin/ and lib/) with the transforms of 8b18170; "after": build/
# with the working tree's. Run time alternated, two rounds, in one sitting;
# then compile time, five alternated pairs. Run from the repository root.
set -euo pipefail
REF_BUILD=${REF_BUILD:?a build folder of 8b18170}
B=build/bin
ref_transforms=$(mktemp -d)
git archive 8b18170 transforms | tar -x -C "$ref_transforms"
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 --batch 32 > /tmp/pw-k4m32.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 --batch 128 > /tmp/pw-k4m128.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --batch 32 > /tmp/pw-k8m32.mlir
python3 examples/gen_decode_kernel.py 4096 32 128 --int4 --dynamic > /tmp/pw-k4dyn.mlir
python3 examples/gen_decoder_layer.py --dynamic --int4 > /tmp/pw-layer4dyn.mlir
grep -m1 "model name" /proc/cpuinfo
side_bench() { # side args...
  local side=$1; shift
  if [[ $side == before ]]; then
    QFORGE_TRANSFORMS_DIR="$ref_transforms/transforms" LD_LIBRARY_PATH="$REF_BUILD/lib" \
      "$REF_BUILD/bin/qforge-bench" "$@"
  else
    $B/qforge-bench "$@"
  fi
}
run() { # label args...
  local label=$1; shift
  for round in 1 2; do
    for side in before after; do
      echo "## $label side=$side round=$round"
      side_bench $side "$@" --min-time-ms=1000 2>&1 | grep -E "^M = |^hot|^cold|^memory read|verify"
    done
  done
}
run k4m32-int8 /tmp/pw-k4m32.mlir --int8-activations --verify
run k4m128-int8 /tmp/pw-k4m128.mlir --int8-activations --verify
run k8m32-int8 /tmp/pw-k8m32.mlir --int8-activations --verify
run k4dyn-int8-M17 /tmp/pw-k4dyn.mlir --int8-activations --dim=M=17 --verify
run k4dyn-int8-M129 /tmp/pw-k4dyn.mlir --int8-activations --dim=M=129 --verify
echo "## compile: qforge-compile --int8-activations of the dynamic 4-bit LLaMA-7B layer, seconds"
for pair in 1 2 3 4 5; do
  for side in before after; do
    start=$(date +%s.%N)
    if [[ $side == before ]]; then
      QFORGE_TRANSFORMS_DIR="$ref_transforms/transforms" LD_LIBRARY_PATH="$REF_BUILD/lib" \
        "$REF_BUILD/bin/qforge-compile" /tmp/pw-layer4dyn.mlir --int8-activations -o /tmp/pw-out.o
    else
      $B/qforge-compile /tmp/pw-layer4dyn.mlir --int8-activations -o /tmp/pw-out.o
    fi
    end=$(date +%s.%N)
    python3 -c "print('$side', f'{$end - $start:.2f}')"
  done
done
rm -rf "$ref_transforms"
