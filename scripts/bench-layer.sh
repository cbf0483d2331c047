#!/usr/bin/env bash
# One LLaMA-7B decoder layer's seven quantized matmuls (u8 or u4 weights,
# scale and zero-point per group of 128): q, k, v, o 4096x4096, gate and up
# 11008x4096, down 4096x11008 -- three distinct weight shapes, each
# benchmarked once with qforge-bench --verify --json, for batch 1 (decode:
# 8-bit weights with the f32, packed and int8 strategies; 4-bit weights with
# f32 and int8 activations) and batch 128 (the prefill strategies, f32 and
# int8 activations). Writes
# build/bench/layer.jsonl (one line per run, with "matmuls" = how many of
# the layer's matmuls have that shape) and prints the per-layer totals;
# scripts/plot-layer.py turns the JSON into an SVG (docs/measurements/data/).
#
#   scripts/bench-layer.sh            # 1 thread
#   THREADS=2 scripts/bench-layer.sh
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
threads="${THREADS:-1}"
out_dir="$build_dir/bench"
mkdir -p "$out_dir"
"$repo_root/scripts/setup.sh" >/dev/null
results="$out_dir/layer.jsonl"
: > "$results"

# N G matmuls-per-layer name
shapes=("4096 32 4 q,k,v,o" "11008 32 2 gate,up" "4096 86 1 down")
# batch weights path flags...
configs=(
  "1 int8 f32 --verify --tolerance=1e-5"
  "1 int8 packed --packed-weights --verify --tolerance=1e-5"
  "1 int8 int8 --int8-activations --verify --tolerance=1e-2"
  "1 int4 int4 --verify --tolerance=1e-5"
  "1 int4 int4-int8 --int8-activations --verify --tolerance=1e-2"
  "128 int8 prefill --strategy-row=prefill-f32/avx512 --verify --tolerance=1e-5 --min-time-ms=2000"
  "128 int4 prefill-int4 --strategy-row=prefill-int4-f32/avx512 --verify --tolerance=1e-5 --min-time-ms=2000"
  "128 int8 prefill-int8 --strategy-row=prefill-int8/vnni --verify --tolerance=1e-2 --min-time-ms=2000"
  "128 int4 prefill-int4-int8 --strategy-row=prefill-int4-int8/vnni --verify --tolerance=1e-2 --min-time-ms=2000"
)

printf 'load average before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
for shape in "${shapes[@]}"; do
  read -r n g count names <<< "$shape"
  for config in "${configs[@]}"; do
    read -r batch weights path flags <<< "$config"
    kernel="$out_dir/layer_${n}x${g}_b${batch}_${weights}.mlir"
    width_flag=""
    [[ $weights == int4 ]] && width_flag="--int4"
    # shellcheck disable=SC2086
    [[ -f $kernel ]] || python3 "$repo_root/examples/gen_decode_kernel.py" "$n" "$g" 128 \
                          --batch "$batch" $width_flag > "$kernel"
    # shellcheck disable=SC2086
    if ! line=$("$build_dir/bin/qforge-bench" "$kernel" $flags --threads="$threads" --json \
                  2>"$out_dir/layer.err" | tail -n 1) || [[ $line != "{"* ]]; then
      echo "${n}x${g} batch $batch $path: qforge-bench failed: $(tail -n 1 "$out_dir/layer.err")" >&2
      continue
    fi
    python3 - "$line" "$n" "$g" "$batch" "$path" "$count" "$names" "$weights" >> "$results" <<'PY'
import json, sys
row = json.loads(sys.argv[1])
row.update(n=int(sys.argv[2]), groups=int(sys.argv[3]), k=int(sys.argv[3]) * 128,
           batch=int(sys.argv[4]), path=sys.argv[5], matmuls=int(sys.argv[6]),
           names=sys.argv[7], weights=sys.argv[8])
print(json.dumps(row))
PY
  done
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if not all(r["verified"] for r in rows):
    sys.exit("verification failed: " + ", ".join(
        f'{r["n"]}x{r["groups"]} {r["path"]}' for r in rows if not r["verified"]))
print(f'{"matmul":<10} {"weights":<11} {"batch":>5} {"path":<12} {"us cold":>9} {"GB/s":>6} {"GFLOP/s":>8}')
for r in rows:
    print(f'{r["names"]:<10} {r["n"]}x{r["k"]:<6} {r["batch"]:>5} {r["path"]:<12} '
          f'{r["us_cold_median"]:9.1f} {r["gbps_cold"]:6.2f} {r["gflops_cold"]:8.1f}')
print("per layer (7 matmuls; q/k/v/o and gate/up share their shape's figure):")
for batch, path in sorted({(r["batch"], r["path"]) for r in rows}):
    sel = [r for r in rows if r["batch"] == batch and r["path"] == path]
    if len(sel) != 3:
        continue
    us = sum(r["us_cold_median"] * r["matmuls"] for r in sel)
    flops = sum(r["flops_per_call"] * r["matmuls"] for r in sel)
    byts = sum(r["bytes_per_call"] * r["matmuls"] for r in sel)
    print(f'  batch {batch:>3} {path:<12} {us:10.1f} us  {byts / us / 1e3:6.2f} GB/s  {flops / us / 1e3:7.1f} GFLOP/s')
PY
