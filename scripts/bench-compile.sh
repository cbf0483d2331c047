#!/usr/bin/env bash
# Compile times of whole models (issue: a whole model in one fast compile):
# qforge-compile --emit=obj of LLaMA-7B-shaped decoder layers, the best of
# ROUNDS runs each (the rounds taking every module in turn), with the
# machine named. A benchmark, not a test.
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

# The modules, each a label, the module its ratio is taken against (none
# for the static layers) and qforge-compile's arguments.
labels=() bases=() commands=()
add() { labels+=("$1"); bases+=("$2"); shift 2; commands+=("$*"); }
add "one layer (7 matmuls, static M = 1)" "" "$work/layer.mlir"
add "one layer, --int8-activations" "" "$work/layer.mlir --int8-activations"
add "one layer, 4-bit weights" "" "$work/layer-int4.mlir"
add "one layer, 4-bit, int8 act." "" "$work/layer-int4.mlir --int8-activations"
add "one layer, dynamic M" 0 "$work/layer-dynamic.mlir"
add "one layer, dynamic M, --int8-activations" 1 "$work/layer-dynamic.mlir --int8-activations"
add "one layer, dynamic M, 4-bit weights" 2 "$work/layer-dynamic-int4.mlir"
add "one layer, dynamic M, 4-bit, int8 act." 3 "$work/layer-dynamic-int4.mlir --int8-activations"
add "2 layers (--layers 2)" 0 "$work/model-2.mlir"
add "$layers layers (--layers $layers)" 0 "$work/model-$layers.mlir"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "qforge-compile --emit=obj, best of $rounds, seconds (x: against the static"
echo "layer of the same weights and activations, in this run; issue 44's targets:"
echo "a dynamic M at most 3x, $layers layers at most 1.5x one layer). The rounds"
echo "go over every module in turn, so that a slow spell of a shared machine"
echo "falls on the modules alike rather than on one module's runs:"
best=()
for _ in $(seq "$rounds"); do
  for index in "${!labels[@]}"; do
    read -r -a arguments <<< "${commands[$index]}"
    start=$(date +%s.%N)
    "$build_dir/bin/qforge-compile" "${arguments[@]}" -o "$work/out.o" > /dev/null
    end=$(date +%s.%N)
    best[index]=$(python3 -c "t = $end - $start; b = '${best[index]:-}'; print(f'{min(t, float(b)) if b else t:.2f}')")
  done
done
for index in "${!labels[@]}"; do
  base="${bases[$index]}"
  if [[ -n "$base" ]]; then
    printf '  %-40s %s  (%sx)\n' "${labels[$index]}" "${best[$index]}" \
      "$(python3 -c "print(f'{${best[$index]} / ${best[$base]}:.2f}')")"
  else
    printf '  %-40s %s\n' "${labels[$index]}" "${best[$index]}"
  fi
  if [[ "${PHASES:-0}" == 1 ]]; then
    read -r -a arguments <<< "${commands[$index]}"
    "$build_dir/bin/qforge-compile" "${arguments[@]}" --timing -o "$work/out.o" 2>&1 >/dev/null |
      sed 's/^/      /' >&2
  fi
done
