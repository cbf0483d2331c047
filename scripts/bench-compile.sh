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
$gen --int4 > "$work/layer-int4.mlir"
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
echo "qforge-compile --emit=obj, best of $rounds, seconds (x: against the static"
echo "layer of the same weights and activations, in this run; issue 44's targets:"
echo "a dynamic M at most 3x, $layers layers at most 1.5x one layer):"
# One line per module, and its ratio to the static layer it is compared with.
row() {
  local label="$1" base="$2"; shift 2
  local seconds
  seconds=$(best_of "$@")
  if [[ -n "$base" ]]; then
    printf '  %-40s %s  (%sx)\n' "$label" "$seconds" \
      "$(python3 -c "print(f'{$seconds / $base:.2f}')")"
  else
    printf '  %-40s %s\n' "$label" "$seconds"
  fi
  last="$seconds"
}
row "one layer (7 matmuls, static M = 1)" "" "$work/layer.mlir"; static="$last"
row "one layer, --int8-activations" "" "$work/layer.mlir" --int8-activations; static_int8="$last"
row "one layer, 4-bit weights" "" "$work/layer-int4.mlir"; static_int4="$last"
row "one layer, 4-bit, int8 act." "" "$work/layer-int4.mlir" --int8-activations; static_int4_int8="$last"
row "one layer, dynamic M" "$static" "$work/layer-dynamic.mlir"
row "one layer, dynamic M, --int8-activations" "$static_int8" "$work/layer-dynamic.mlir" --int8-activations
row "one layer, dynamic M, 4-bit weights" "$static_int4" "$work/layer-dynamic-int4.mlir"
row "one layer, dynamic M, 4-bit, int8 act." "$static_int4_int8" "$work/layer-dynamic-int4.mlir" --int8-activations
row "2 layers (--layers 2)" "$static" "$work/model-2.mlir"
row "$layers layers (--layers $layers)" "$static" "$work/model-$layers.mlir"
