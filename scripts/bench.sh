#!/usr/bin/env bash
# Benchmarks: runs qforge-bench --verify --json on the decode kernels RUNS
# times each (default 3) and prints min and median over the runs of the cold
# time, GB/s and fraction of the read bandwidth measured in the same run,
# with the machine load. The JSON lines go to build/bench/<shape>.jsonl.
#
#   scripts/bench.sh                 # seed shape 4096x32x128
#   scripts/bench.sh --llama         # + LLaMA-7B decoder shapes
#   RUNS=5 scripts/bench.sh
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
runs="${RUNS:-3}"
out_dir="$build_dir/bench"
mkdir -p "$out_dir"

"$repo_root/scripts/setup.sh" >/dev/null

shapes=("4096 32 128")
if [[ "${1:-}" == "--llama" ]]; then
  shapes+=("11008 32 128" "4096 86 128")
fi

printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %9s %9s %9s %9s %8s %8s\n' shape us_cold_min us_cold_med GBps_med memGBps frac_min frac_med
for shape in "${shapes[@]}"; do
  name="${shape// /x}"
  kernel="$out_dir/decode_$name.mlir"
  python3 "$repo_root/examples/gen_decode_kernel.py" $shape > "$kernel"
  results="$out_dir/decode_$name.jsonl"
  : > "$results"
  for ((run = 0; run < runs; run++)); do
    "$build_dir/bin/qforge-bench" "$kernel" --verify --json 2>/dev/null | tail -n 1 >> "$results"
  done
  python3 - "$results" "$name" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
if not all(r["verified"] for r in rows):
    sys.exit(f"{sys.argv[2]}: verification failed")
cold = [r["us_cold_median"] for r in rows]
frac = [r["bw_fraction_cold"] for r in rows]
gbps = [r["gbps_cold"] for r in rows]
mem = [r["mem_read_gbps"] for r in rows]
print(f"{sys.argv[2]:<14} {min(cold):9.1f} {statistics.median(cold):9.1f} "
      f"{statistics.median(gbps):9.2f} {statistics.median(mem):9.2f} "
      f"{min(frac):8.3f} {statistics.median(frac):8.3f}")
PY
done
