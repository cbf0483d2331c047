#!/usr/bin/env bash
# Runs one of qforge's libFuzzer targets (fuzz/, built by
# scripts/sanitize.sh with ASan + UBSan) for a while:
#
#   scripts/fuzz.sh kernel|script|bytecode|gguf SECONDS [-- LIBFUZZER_FLAGS...]
#
#   kernel  the kernel front door: parse, normalize, match, the shipped
#           strategy (default, or "// fuzz: packed" / "// fuzz: int8" in the
#           input), lowering, LLVM IR -- seeded with examples/ and the
#           generators' kernels in every producer form;
#   script  the script front door: a small kernel + a shipped strategy from
#           transforms/ (each one, on a kernel of its kind), with pack, tile
#           and unroll sizes mutated;
#   bytecode  the readers' front door: a file read as the tools read it (in
#           a child process first, docs/reliability.md), seeded with the
#           generators' kernels as MLIR bytecode, bytes mutated;
#   gguf    the GGUF reader (lib/Gguf): test/Tools/Inputs/write-gguf.py's
#           files, valid and broken, bytes mutated.
#
# The corpus grows in $build/fuzz/corpus-TARGET (kept between runs); a crash,
# sanitizer report, timeout (-timeout, default 60 s) or memory blow-up
# (-rss_limit_mb, default 6144) is written to $build/fuzz/findings-TARGET/
# and the script exits non-zero. The last line says how many inputs ran.
set -euo pipefail

usage() { echo "usage: $0 kernel|script|bytecode|gguf SECONDS [-- LIBFUZZER_FLAGS...]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
target="$1"; seconds="$2"; shift 2
[[ "$target" == kernel || "$target" == script || "$target" == bytecode || "$target" == gguf ]] || usage
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
extra=()
if [[ $# -gt 0 ]]; then
  [[ "$1" == "--" ]] || usage
  shift; extra=("$@")
fi

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_SANITIZE_BUILD_DIR:-$repo_root/build-san}"
fuzzer="$build_dir/bin/qforge-fuzz-$target"
[[ -x "$fuzzer" ]] || { echo "fuzz: $fuzzer is missing: run scripts/sanitize.sh --build-only" >&2; exit 1; }
python="${PYTHON:-python3}"
gen_decode="$python $repo_root/examples/gen_decode_kernel.py"
gen_producer="$python $repo_root/examples/gen_producer_kernel.py"

work="$build_dir/fuzz"
corpus="$work/corpus-$target"
seeds="$work/seeds-$target"
findings="$work/findings-$target"
mkdir -p "$corpus" "$findings"
rm -rf "$seeds"; mkdir -p "$seeds"

# Small kernels of every kind the strategies read.
kernel_seeds() {
  local dir="$1"
  $gen_decode 128 2 128 > "$dir/decode.mlir"
  $gen_decode 100 3 64 --signed > "$dir/decode-signed.mlir"
  $gen_decode 64 1 128 --no-zero-point > "$dir/decode-symmetric.mlir"
  $gen_decode 128 2 128 --int4 > "$dir/decode-int4.mlir"
  $gen_decode 128 2 128 --batch 16 > "$dir/prefill.mlir"
  $gen_decode 128 2 128 --batch 16 --int4 > "$dir/prefill-int4.mlir"
  $gen_decode 64 2 128 --batch 3 > "$dir/batched-3.mlir"
  $gen_decode 64 2 128 --batch 1 --dynamic > "$dir/dynamic.mlir"
  $gen_producer iree 128 2 128 > "$dir/iree.mlir"
  $gen_producer torch 128 2 128 --float f16 > "$dir/torch-f16.mlir"
  $gen_producer iree 96 2 128 --int4 --float bf16 > "$dir/iree-int4-bf16.mlir"
  $gen_producer torch 64 2 64 --zero-point const --params gn > "$dir/torch-const-zp.mlir"
  $gen_producer torch 64 2 128 --batch 5 --scale-form distributed > "$dir/torch-batched.mlir"
}

if [[ "$target" == kernel ]]; then
  kernel_seeds "$seeds"
  cp "$repo_root"/examples/*.mlir "$seeds/"
  for kind in packed int8; do
    for name in decode decode-int4 decode-symmetric iree; do
      { echo "// fuzz: $kind"; cat "$seeds/$name.mlir"; } > "$seeds/$name-$kind.mlir"
    done
  done
  # The int8 strategies on CPUs without AVX512-VNNI: each vpdpbusd split
  # (AVX-VNNI) or expanded (AVX2) by the driver; batched-3 is the integer
  # prefill's one block of tokens, decode-symmetric one group per row.
  for cpu in znver3 alderlake; do
    for name in decode decode-int4 prefill batched-3; do
      { echo "// fuzz: int8"; echo "// fuzz: cpu=$cpu"; cat "$seeds/$name.mlir"; } \
        > "$seeds/$name-int8-$cpu.mlir"
    done
  done
  $python "$repo_root/examples/gen_decoder_layer.py" --hidden 128 --intermediate 256 \
    --group 64 > "$seeds/layer.mlir"
elif [[ "$target" == gguf ]]; then
  for variant in valid magic version tensor-count key-length alignment \
      value-type array-type dims negative-dim type blocks duplicate \
      misaligned offset truncated; do
    $python "$repo_root/test/Tools/Inputs/write-gguf.py" "$seeds/$variant.gguf" "$variant"
  done
elif [[ "$target" == bytecode ]]; then
  kernels="$work/kernels"; mkdir -p "$kernels"
  kernel_seeds "$kernels"
  for kernel in "$kernels"/*.mlir; do
    "$build_dir/bin/qforge-opt" "$kernel" --emit-bytecode \
      -o "$seeds/$(basename "$kernel" .mlir).mlirbc"
  done
else
  kernels="$work/kernels"; mkdir -p "$kernels"
  kernel_seeds "$kernels"
  for script in "$repo_root"/transforms/*.mlir; do
    name="$(basename "$script" .mlir)"
    case "$name" in
      prefill-*int4*) kernel=prefill-int4 ;;
      prefill-*) kernel=prefill ;;
      *int4*) kernel=decode-int4 ;;
      *) kernel=decode ;;
    esac
    { cat "$kernels/$kernel.mlir"; echo "// ----- script"; cat "$script"; } > "$seeds/$name.mlir"
  done
fi

log="$work/fuzz-$target.log"
status=0
# libFuzzer checks its time between inputs; the wall clock bounds the rest
# (a child process that outlives its input once kept CI waiting).
timeout --kill-after=30 $((seconds + 180)) \
  "$fuzzer" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=60 \
  -rss_limit_mb=6144 -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$findings/" "${extra[@]}" > "$log" 2>&1 || status=$?
executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
if [[ "$status" -ne 0 ]]; then
  grep -E '^(==[0-9]+==|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' "$log" | head -20 >&2 || true
  echo "fuzz $target: FAILED after ${executed:-?} inputs in <= $seconds s (log: $log, findings: $findings)" >&2
  exit 1
fi
echo "fuzz $target: ${executed:-0} inputs in $seconds s, no finding (corpus: $(ls "$corpus" | wc -l) inputs in $corpus)"
