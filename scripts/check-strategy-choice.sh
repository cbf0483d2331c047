#!/usr/bin/env bash
# Checks that a refactor of the strategy wing changes no kernel: the
# compiler of a reference revision and the working tree's, each built from
# its own source, compile the same matrix through the driver's own choice
# (no --script) and must write byte-identical LLVM IR.
#
#   scripts/check-strategy-choice.sh REV [--ref-build DIR] [--keep DIR]
#
# Without --ref-build, REV is checked out into a temporary worktree and
# built there (one build at a time: ~15 min on 2 cores); --ref-build names
# a build folder of REV made earlier (its bin/ and lib/; its transforms/
# are taken from REV with git archive). The working tree's side is
# build/ (QFORGE_BUILD_DIR).
#
# The matrix: the kernels of examples/ that compile as one kernel, the
# LLaMA shapes (4096x32x128, 11008x32x128, 4096x86x128) as decode, batched
# (M = 32) and 4-bit kernels, groups of 32, a small M = 3, the producers'
# forms (IREE, torch-mlir; batched too), a dynamic token count (8- and
# 4-bit), LLaMA's MLP block as a whole module (M = 1, 17, and 4-bit with
# a dynamic M), the StableHLO dense seed, each x {no flag, --packed-weights, --int8-activations, both} x
# --mcpu = znver3 znver4 znver5 sapphirerapids icelake-server
# skylake-avx512 alderlake haswell, with --emit=llvm. A compile that fails
# must fail on both sides (messages are not compared). `; ModuleID` lines
# are dropped (they name the input path). This is a tool for refactors,
# not a permanent test: later work changes kernels on purpose.
# Exits 0 when everything is identical.
set -euo pipefail

usage() { echo "usage: $0 REV [--ref-build DIR] [--keep DIR]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
rev="$1"; shift
ref_build=""
keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ref-build) [[ $# -ge 2 ]] || usage; ref_build="$2"; shift 2 ;;
    --keep) [[ $# -ge 2 ]] || usage; keep="$2"; shift 2 ;;
    *) usage ;;
  esac
done

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
python="${PYTHON:-python3}"
jobs="${JOBS:-2}"

work="$(mktemp -d)"
cleanup() {
  if [[ -d "$work/worktree" ]]; then
    git -C "$repo_root" worktree remove --force "$work/worktree" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [[ -z "$ref_build" ]]; then
  git -C "$repo_root" worktree add --detach "$work/worktree" "$rev" > /dev/null
  cmake -S "$work/worktree" -B "$work/worktree/build" -G Ninja > /dev/null
  ninja -C "$work/worktree/build" qforge-compile
  ref_build="$work/worktree/build"
fi
# A snapshot of the working tree's compiler (a rebuild during the run would
# otherwise compare against two compilers).
mkdir -p "$work/new/bin" "$work/new/lib"
cp "$build_dir/bin/qforge-compile" "$work/new/bin/"
cp -P "$build_dir"/lib/libQForgeTransformOps.so* "$work/new/lib/"
mkdir -p "$work/ref"
git -C "$repo_root" archive "$rev" transforms | tar -x -C "$work/ref"

k="$work/kernels"
mkdir -p "$k"
gen="$python $repo_root/examples/gen_decode_kernel.py"
prod="$python $repo_root/examples/gen_producer_kernel.py"
cp "$repo_root/examples/seed_decode_4096x32x128.mlir" "$k/seed.mlir"
for shape in "4096 32 128" "11008 32 128" "4096 86 128"; do
  name="${shape// /x}"
  $gen $shape > "$k/$name.mlir"
  $gen $shape --batch 32 > "$k/$name-m32.mlir"
  $gen $shape --int4 > "$k/$name-int4.mlir"
done
$gen 4096 32 128 --batch 32 --int4 > "$k/4096x32x128-m32-int4.mlir"
$gen 4096 128 32 > "$k/4096x128x32.mlir"
$gen 4096 32 128 --batch 3 > "$k/4096x32x128-m3.mlir"
$gen 4096 32 128 --batch 8 --signed > "$k/4096x32x128-m8-signed.mlir"
$gen 4096 32 128 --dynamic > "$k/4096x32x128-dynamic.mlir"
$gen 4096 32 128 --dynamic --int4 > "$k/4096x32x128-dynamic-int4.mlir"
$prod iree 4096 32 128 > "$k/iree.mlir"
$prod torch 4096 32 128 > "$k/torch.mlir"
$prod iree 4096 32 128 --batch 32 > "$k/iree-m32.mlir"
$prod iree 4096 32 128 --int4 > "$k/iree-int4.mlir"
layer="$python $repo_root/examples/gen_decoder_layer.py"
$layer --mlp-only > "$k/llama-mlp.mlir"
$layer --mlp-only --tokens 17 > "$k/llama-mlp-m17.mlir"
$layer --mlp-only --int4 --dynamic > "$k/llama-mlp-int4-dynamic.mlir"
cp "$repo_root/examples/stablehlo_seed_dense.mlir" "$k/stablehlo-dense.mlir"

cpus=(znver3 znver4 znver5 sapphirerapids icelake-server skylake-avx512 alderlake haswell)
flag_sets=("" "--packed-weights" "--int8-activations" "--packed-weights --int8-activations")

list="$work/list"
: > "$list"
for kernel in "$k"/*.mlir; do
  for cpu in "${cpus[@]}"; do
    for flags_index in "${!flag_sets[@]}"; do
      for side in ref new; do
        echo "$side $kernel $cpu $flags_index" >> "$list"
      done
    done
  done
done

compile_one() {
  local side="$1" kernel="$2" cpu="$3" flags_index="$4"
  local flag_sets=("" "--packed-weights" "--int8-activations" "--packed-weights --int8-activations")
  local bin lib dir
  if [[ "$side" == ref ]]; then
    bin="$REF_BUILD/bin"; lib="$REF_BUILD/lib"; dir="$WORK/ref/transforms"
  else
    bin="$NEW_BUILD/bin"; lib="$NEW_BUILD/lib"; dir="$REPO_ROOT/transforms"
  fi
  local out="$WORK/out/$side/$(basename "$kernel" .mlir).$cpu.$flags_index.ll"
  # shellcheck disable=SC2086
  if LD_LIBRARY_PATH="$lib" QFORGE_TRANSFORMS_DIR="$dir" "$bin/qforge-compile" \
      "$kernel" --mcpu="$cpu" ${flag_sets[$flags_index]} --emit=llvm -o "$out.raw" \
      2> "$out.stderr"; then
    grep -v '^; ModuleID' "$out.raw" > "$out"
  else
    echo "FAILED" > "$out"
  fi
  rm -f "$out.raw"
}
export -f compile_one
export WORK="$work" REPO_ROOT="$repo_root" REF_BUILD="$ref_build" NEW_BUILD="$work/new"
mkdir -p "$work/out/ref" "$work/out/new"
start=$(date +%s)
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 bash -c 'compile_one "$@"' _ < "$list"

identical=0
failed_both=0
differ=()
for ref in "$work/out/ref"/*.ll; do
  name="$(basename "$ref")"
  new="$work/out/new/$name"
  if cmp -s "$ref" "$new"; then
    if [[ "$(head -c 6 "$ref")" == FAILED ]]; then
      failed_both=$((failed_both + 1))
    else
      identical=$((identical + 1))
    fi
  else
    differ+=("$name")
  fi
done

if [[ -n "$keep" ]]; then
  mkdir -p "$keep"
  cp -r "$work/out/ref" "$work/out/new" "$work/kernels" "$keep/"
fi

echo "check-strategy-choice against $rev: $(ls "$k" | wc -l) kernels x" \
  "${#cpus[@]} CPUs x ${#flag_sets[@]} flag sets in $(( $(date +%s) - start )) s:" \
  "$identical identical LLVM IR, $failed_both compiles failing on both sides," \
  "${#differ[@]} differing"
for name in "${differ[@]}"; do
  echo "  differs: $name"
done
[[ ${#differ[@]} -eq 0 ]]
