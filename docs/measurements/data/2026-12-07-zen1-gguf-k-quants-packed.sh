#!/usr/bin/env bash
# GGUF K-quants packed once (--packed-weights: q4_K and q5_K in the seed's
# offset form, q6_K in its zero-point form) against the blocks read in
# place and against ggml's mul_mat on the same bytes in the same process
# (--peer=ggml), one thread, int8 activations: a decode (M = 1) and a
# prefill (M = 128), 4096x4096. Each run verified against ggml's to_float.
set -euo pipefail
repo="${REPO:-/work/main}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
model_name="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
family="$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2)"
echo "machine:$model_name (family$family), $(nproc) vCPUs; $(date -u +%FT%TZ)"
for type in ${TYPES:-q4_K q5_K q6_K}; do
  for tokens in ${TOKENS:-1 128}; do
    batch=()
    [[ "$tokens" != 1 ]] && batch=(--batch "$tokens")
    python3 "$repo/examples/gen_gguf_kernel.py" "$type" 4096 4096 "${batch[@]}" > "$work/k.mlir"
    for layout in in-place packed; do
      packing=()
      [[ "$layout" == packed ]] && packing=(--packed-weights)
      echo "== $type M=$tokens $layout"
      "$repo/build/bin/qforge-bench" "$work/k.mlir" --int8-activations "${packing[@]}" \
        --threads=1 --verify --oracle=ggml --peer=ggml --min-time-ms=${MIN_TIME_MS:-1500} --json 2>&1 |
        grep -E "^(verify: against ggml|\{)|compiling @|cold|hot" | cut -c1-400
    done
  done
done
