#!/usr/bin/env bash
# Compile times of whole models (issue: a whole model in one fast compile):
# qforge-compile --emit=obj of LLaMA-7B-shaped decoder layers, the best of
# ROUNDS runs each, with the machine named. A benchmark, not a test.
#
#   scripts/bench-compile.sh            # hidden 4096, intermediate 11008
#   ROUNDS=5 LAYERS=32 scripts/bench-compile.sh
#   PHASES=1 scripts/bench-compile.sh   # and each module's time by phase
#                                       # (qforge-compile --timing)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
python="${PYTHON:-python3}"
rounds="${ROUNDS:-3}"
layers="${LAYERS:-32}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

gen="$python $repo_root/examples/gen_decoder_layer.py"
$gen > "$work/layer.mlir"
$gen --dynamic > "$work/layer-dynamic.mlir"
$gen --dynamic --int4 > "$work/layer-dynamic-int4.mlir"
$gen --layers 2 > "$work/model-2.mlir"
$gen --layers "$layers" > "$work/model-$layers.mlir"

best_of() {
  local best=""
  for _ in $(seq "$rounds"); do
    local start end
    start=$(date +%s.%N)
    "$build_dir/bin/qforge-compile" "$@" -o "$work/out.o" > /dev/null
    end=$(date +%s.%N)
    best=$(python3 -c "t = $end - $start; b = '$best'; print(f'{min(t, float(b)) if b else t:.2f}')")
  done
  echo "$best"
  if [[ "${PHASES:-0}" == 1 ]]; then
    "$build_dir/bin/qforge-compile" "$@" --timing -o "$work/out.o" 2>&1 >/dev/null |
      sed 's/^/      /' >&2
  fi
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "qforge-compile --emit=obj, best of $rounds, seconds:"
printf '  %-40s %s\n' "one layer (7 matmuls, static M = 1)" "$(best_of "$work/layer.mlir")"
printf '  %-40s %s\n' "one layer, dynamic M" "$(best_of "$work/layer-dynamic.mlir")"
printf '  %-40s %s\n' "one layer, dynamic M, --int8-activations" "$(best_of "$work/layer-dynamic.mlir" --int8-activations)"
printf '  %-40s %s\n' "one layer, dynamic M, 4-bit weights" "$(best_of "$work/layer-dynamic-int4.mlir")"
printf '  %-40s %s\n' "one layer, dynamic M, 4-bit, int8 act." "$(best_of "$work/layer-dynamic-int4.mlir" --int8-activations)"
printf '  %-40s %s\n' "one layer, --int8-activations" "$(best_of "$work/layer.mlir" --int8-activations)"
printf '  %-40s %s\n' "2 layers (--layers 2)" "$(best_of "$work/model-2.mlir")"
printf '  %-40s %s\n' "$layers layers (--layers $layers)" "$(best_of "$work/model-$layers.mlir")"
