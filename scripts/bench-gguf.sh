#!/usr/bin/env bash
# GGUF blocks read in place against ggml on the same bytes (docs/gguf.md):
# each type x path x LLaMA shape x thread count, verified by the built-in
# reference and by ggml's own dequantization (--oracle=ggml), then timed
# hot and cold with ggml's mul_mat beside it in the same process
# (--peer=ggml). Prints one table row per run; the JSON lines go to
# build/bench/gguf.jsonl.
#
#   scripts/bench-gguf.sh                 # q8_0, decode f32 and int8, 1 and 2 threads
#   TYPES=q8_0 PATHS="int8" THREADS=1 SHAPES="4096 4096" scripts/bench-gguf.sh
#   TYPES=q4_0 PATHS=int8 scripts/bench-gguf.sh    # q4_0: its fields apart
#   TYPES="q4_K q5_K" scripts/bench-gguf.sh         # the two-level form
#
# FORM: blocks (read in place) or fields (apart, --fields); q4_0 is written
# with its fields apart only, whatever FORM says.
# PATHS: f32 (the decode with f32 activations), int8 (--int8-activations).
# SHAPES: "N K" pairs separated by ';' (default: LLaMA-7B's 4096x4096,
# 11008x4096, 4096x11008). A run that fails verification is listed at the
# end and makes the exit status non-zero.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
types="${TYPES:-q8_0}"
paths="${PATHS:-f32 int8}"
threads_list="${THREADS:-1 2}"
shapes="${SHAPES:-4096 4096;11008 4096;4096 11008}"
form="${FORM:-blocks}"
out_dir="$build_dir/bench"
mkdir -p "$out_dir"
"$repo_root/scripts/setup.sh" > /dev/null
bench="$build_dir/bin/qforge-bench"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
results="$out_dir/gguf.jsonl"
: > "$results"
failed=()

printf '%-5s %-5s %-11s %3s %9s %9s %9s %9s %7s %6s %6s\n' type path "N x K" thr \
  "qf hot" "qf cold" "gg hot" "gg cold" "ratio" "BW" "frac"
IFS=';' read -r -a shape_list <<< "$shapes"
for type in $types; do
  for shape in "${shape_list[@]}"; do
    read -r n k <<< "$shape"
    kernel="$tmp/$type-$n-$k.mlir"
    form_flags=()
    if [[ "$form" == fields || "$type" == q4_0 ]]; then form_flags=(--fields); fi
    python3 "$repo_root/examples/gen_gguf_kernel.py" "$type" "$n" "$k" "${form_flags[@]}" > "$kernel"
    for path in $paths; do
      flags=()
      [[ "$path" == int8 ]] && flags+=(--int8-activations)
      for threads in $threads_list; do
        line="$("$bench" "$kernel" "${flags[@]}" --threads="$threads" --verify \
          --oracle=ggml --peer=ggml --json 2> "$tmp/stderr" | tail -n 1)" || true
        if [[ "$line" != "{"* ]] || ! grep -q '"verified":true' <<< "$line"; then
          failed+=("$type $path ${n}x$k threads=$threads")
          continue
        fi
        echo "{\"type\":\"$type\",\"path\":\"$path\",${line#\{}" >> "$results"
        python3 - "$line" "$type" "$path" "${n}x$k" "$threads" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
print("%-5s %-5s %-11s %3s %9.1f %9.1f %9.1f %9.1f %6.2fx %6.1f %6.2f" % (
    sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], r["us_hot_median"],
    r["us_cold_median"], r["peer_us_hot"], r["peer_us_cold"],
    r["peer_us_cold"] / r["us_cold_median"], r["mem_read_gbps"],
    r["bw_fraction_cold"]))
PY
      done
    done
  done
done
echo "(us: medians; ratio: ggml cold / qforge cold; BW: the same run's read pass, GB/s; frac: qforge cold / BW)"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
