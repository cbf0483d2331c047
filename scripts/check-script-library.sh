#!/usr/bin/env bash
# Checks that the shipped strategies (transforms/*.mlir, with the script
# library transforms/lib/ and the strategy table, whose row for the script
# and target gives its numbers) produce the same IR as those of a reference
# git revision with the same script names (for a change of the strategy
# wing itself, scripts/check-strategy-choice.sh compares through the
# driver's own choice):
#
#   scripts/check-script-library.sh REV [--keep DIR] [--only REGEX]
#
# REV's transforms/ is checked out into a temporary folder. Kernels are
# generated there (the seed, the LLaMA shapes 4096x32x128, 11008x32x128 and
# 4096x86x128, signed, symmetric and non-dividing variants, batched (M = 32)
# and 4-bit kernels, the producers' forms of examples/gen_producer_kernel.py),
# and every strategy is compiled on the kernels of its kind with
# `qforge-compile --emit=mlir` and `--emit=lowered` (which also runs the
# script's @qforge_after_bufferization), once with REV's scripts and once
# with the working tree's, each side with its own script library
# (QFORGE_TRANSFORMS_DIR). Outputs must be byte-identical; a compile that
# fails must fail on both sides (the messages are not compared: they name
# script locations). Both sides run one copy of build/bin/qforge-compile.
# --keep DIR keeps the outputs (DIR/ref, DIR/new) and the kernels;
# --only REGEX compiles only the strategies whose name matches it (bash
# regex, e.g. 'two-level').
# Exits 0 when everything is identical.
set -euo pipefail

usage() { echo "usage: $0 REV [--keep DIR] [--only REGEX]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
rev="$1"; shift
keep=""
only=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --keep) [[ $# -ge 2 ]] || usage; keep="$2"; shift 2 ;;
    --only) [[ $# -ge 2 ]] || usage; only="$2"; shift 2 ;;
    *) usage ;;
  esac
done

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
python="${PYTHON:-python3}"
jobs="${JOBS:-2}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# One snapshot of the compiler for both sides (a rebuild during the run
# would otherwise compare two compilers).
mkdir -p "$work/bin" "$work/lib"
cp "$build_dir/bin/qforge-compile" "$work/bin/"
cp -P "$build_dir"/lib/libQForgeTransformOps.so* "$work/lib/"

mkdir -p "$work/ref"
git -C "$repo_root" archive "$rev" transforms | tar -x -C "$work/ref"

# Kernels, by kind: i8 decode (M = 1), 4-bit decode, i8 prefill, 4-bit
# prefill, GGUF K-quant blocks (two-level) and q8_0 blocks, both for M = 1
# and for batches.
k="$work/kernels"
mkdir -p "$k/decode" "$k/int4" "$k/prefill" "$k/prefill-int4" "$k/gguf" "$k/gguf-batched" \
  "$k/gguf-q8" "$k/gguf-q8-batched"
gen="$python $repo_root/examples/gen_decode_kernel.py"
prod="$python $repo_root/examples/gen_producer_kernel.py"
cp "$repo_root/examples/seed_decode_4096x32x128.mlir" "$k/decode/seed.mlir"
for shape in "4096 32 128" "11008 32 128" "4096 86 128"; do
  name="${shape// /x}"
  $gen $shape > "$k/decode/$name.mlir"
  $gen $shape --int4 > "$k/int4/$name.mlir"
  $gen $shape --batch 32 > "$k/prefill/$name.mlir"
  $gen $shape --batch 32 --int4 > "$k/prefill-int4/$name.mlir"
done
$gen 4096 32 128 --signed > "$k/decode/4096x32x128-signed.mlir"
$gen 4096 32 128 --no-zero-point > "$k/decode/4096x32x128-symmetric.mlir"
$gen 100 3 64 > "$k/decode/100x3x64.mlir"
$gen 4096 32 128 --int4 --signed > "$k/int4/4096x32x128-signed.mlir"
$gen 100 3 64 --int4 > "$k/int4/100x3x64.mlir"
$gen 100 3 64 --batch 13 > "$k/prefill/100x3x64-m13.mlir"
$gen 4096 32 128 --batch 32 --signed > "$k/prefill/4096x32x128-signed.mlir"
$gen 100 3 64 --batch 13 --int4 > "$k/prefill-int4/100x3x64-m13.mlir"
$prod iree 4096 32 128 > "$k/decode/iree.mlir"
$prod torch 4096 32 128 > "$k/decode/torch.mlir"
$prod iree 4096 32 128 --params gn > "$k/decode/iree-gn.mlir"
$prod iree 4096 32 128 --scale-form distributed --signed > "$k/decode/iree-distributed.mlir"
$prod iree 4096 32 128 --int4 > "$k/int4/iree.mlir"
$prod iree 4096 32 128 --zero-point const --int4 --no-i32 > "$k/int4/iree-q40.mlir"
$prod iree 4096 32 128 --batch 32 > "$k/prefill/iree.mlir"
$prod torch 4096 32 128 --batch 32 > "$k/prefill/torch.mlir"
$prod iree 4096 32 128 --batch 32 --int4 > "$k/prefill-int4/iree.mlir"
ggufgen="$python $repo_root/examples/gen_gguf_kernel.py"
for type in q4_K q5_K q6_K; do
  $ggufgen $type 4096 4096 > "$k/gguf/$type.mlir"
done
$ggufgen q4_K 37 768 --fields > "$k/gguf/q4_K-fields-37x768.mlir"
$ggufgen q4_K 4096 4096 --batch 16 > "$k/gguf-batched/q4_K-m16.mlir"
$ggufgen q6_K 37 768 --batch 5 > "$k/gguf-batched/q6_K-37x768-m5.mlir"
$ggufgen q8_0 4096 4096 > "$k/gguf-q8/q8_0.mlir"
$ggufgen q8_0 4096 4096 --batch 16 > "$k/gguf-q8-batched/q8_0-m16.mlir"

# Strategy -> kind of kernel, and the target (its row in the table).
strategies=(
  "loops decode"
  "match-and-simplify-dequant decode"
  "decode-f32 decode --mcpu=znver5"
  "decode-f32 decode --mcpu=znver4"
  "decode-f32 decode --mcpu=haswell"
  "decode-int8 decode --mcpu=sapphirerapids"
  "decode-int8 decode --mcpu=znver5"
  "decode-int8 decode --mcpu=alderlake"
  "decode-int8 decode --mcpu=haswell"
  "decode-packed-f32 decode --mcpu=znver5"
  "decode-packed-f32 decode --mcpu=haswell"
  "decode-packed-int8 decode --mcpu=znver5"
  "decode-packed-int8 decode --mcpu=haswell"
  "decode-packed-int4-f32 int4 --mcpu=znver5"
  "decode-packed-int4-f32 int4 --mcpu=haswell"
  "decode-packed-int4-int8 int4 --mcpu=znver5"
  "prefill-f32 prefill --mcpu=znver5"
  "prefill-f32 prefill --mcpu=sapphirerapids"
  "prefill-f32 prefill --mcpu=haswell"
  "prefill-int8 prefill --mcpu=znver5"
  "prefill-int8 prefill --mcpu=sapphirerapids"
  "prefill-int8 prefill --mcpu=haswell"
  "prefill-int4-f32 prefill-int4 --mcpu=znver5"
  "prefill-int4-f32 prefill-int4 --mcpu=sapphirerapids"
  "prefill-int4-f32 prefill-int4 --mcpu=haswell"
  "prefill-int4-int8 prefill-int4 --mcpu=znver5"
  "decode-two-level-f32 gguf --mcpu=znver5"
  "decode-two-level-f32 gguf --mcpu=haswell"
  "decode-two-level-int8 gguf --mcpu=znver5"
  "decode-two-level-int8 gguf --mcpu=haswell"
  "prefill-two-level-f32 gguf-batched --mcpu=znver5"
  "prefill-two-level-int8 gguf-batched --mcpu=znver5"
  "decode-f32 gguf-q8 --mcpu=znver5"
  "decode-int8 gguf-q8 --mcpu=znver5"
  "decode-int8 gguf-q8 --mcpu=haswell"
  "prefill-in-place-f32 gguf-q8-batched --mcpu=znver5"
  "prefill-in-place-int8 gguf-q8-batched --mcpu=znver5"
)

# One line per compile: side, strategy, kernel file, emit, extra options.
list="$work/list"
: > "$list"
for entry in "${strategies[@]}"; do
  read -r strategy kind options <<< "$entry"
  [[ -z "$only" || "$strategy" =~ $only ]] || continue
  for kernel in "$k/$kind"/*.mlir; do
    for emit in mlir lowered; do
      for side in ref new; do
        # (no trailing blank: xargs -L would join the next line)
        echo "$side $strategy $kernel $emit${options:+ $options}" >> "$list"
      done
    done
  done
done

compile_one() {
  local work="$1" repo_root="$2" side="$3" strategy="$4" kernel="$5" emit="$6"
  shift 6
  local dir
  if [[ "$side" == ref ]]; then dir="$work/ref/transforms"; else dir="$repo_root/transforms"; fi
  local tag="${*//[^a-z0-9]/_}"
  local out="$work/out/$side/$strategy$tag.$(basename "$kernel" .mlir).$emit"
  if ! QFORGE_TRANSFORMS_DIR="$dir" "$work/bin/qforge-compile" "$kernel" \
      --script="$dir/$strategy.mlir" --emit="$emit" "$@" -o "$out" \
      2> "$out.stderr"; then
    echo "FAILED" > "$out"
  fi
}
export -f compile_one
mkdir -p "$work/out/ref" "$work/out/new"
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 bash -c 'compile_one "$@"' _ "$work" "$repo_root" < "$list"

identical=0
failed_both=0
differ=()
for ref in "$work/out/ref"/*; do
  [[ "$ref" == *.stderr ]] && continue
  name="$(basename "$ref")"
  new="$work/out/new/$name"
  if cmp -s "$ref" "$new"; then
    if [[ "$(head -c 7 "$ref")" == FAILED ]]; then
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

echo "check-script-library against $rev: $identical identical outputs," \
  "$failed_both compiles failing on both sides, ${#differ[@]} differing"
for name in "${differ[@]}"; do
  echo "  differs: $name"
done
[[ ${#differ[@]} -eq 0 ]]
