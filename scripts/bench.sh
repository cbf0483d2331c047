#!/usr/bin/env bash
# Benchmarks: runs qforge-bench --verify --json on the decode kernels RUNS
# times per configuration (default 3) -- the f32 factored strategy, the
# packed one (--packed-weights), the int8 one (--int8-activations) and the
# packed int8 one (both flags), and for 4-bit weights (int4: f32
# activations, int4-int8: --int8-activations; PATHS picks), on 1 and 2
# threads, alternating -- and prints, over the
# runs, the min and median of the cold time and of the fraction of the read
# bandwidth measured in the same run (with as many threads: memGBps, the
# median over the runs of each run's best read pass; memLow, the slowest
# pass of any run), with the machine load. JSON lines go to build/bench/<shape>_<path>_<threads>t.jsonl.
#
#   scripts/bench.sh                 # seed shape 4096x32x128
#   scripts/bench.sh --llama         # + LLaMA-7B decoder shapes
#   scripts/bench.sh --prefill       # the seed weights x 128 activation rows,
#                                    # prefill strategy (GFLOP/s column;
#                                    # PATHS="prefill prefill-int4
#                                    # prefill-int8 prefill-int4-int8")
#   RUNS=5 THREADS="1 2" PATHS="f32 packed" scripts/bench.sh
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
runs="${RUNS:-3}"
thread_counts="${THREADS:-1 2}"
paths="${PATHS:-f32 packed int8}"
out_dir="$build_dir/bench"
mkdir -p "$out_dir"

"$repo_root/scripts/setup.sh" >/dev/null

# "N G K [M]": weights NxGxK, M activation rows (default 1, decode).
shapes=("4096 32 128")
if [[ "${1:-}" == "--llama" ]]; then
  shapes+=("11008 32 128" "4096 86 128")
elif [[ "${1:-}" == "--prefill" ]]; then
  shapes=("4096 32 128 128")
  paths="${PATHS:-prefill}"
fi

printf 'load average before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
# peak: the arithmetic peak the same runs measured (f32 multiply-adds, or
# int8 dot products for the paths with int8 activations), median; of_peak:
# GFLOPs / peak, median over the runs.
printf '%-17s %-12s %3s %10s %10s %8s %8s %8s %8s %8s %9s %8s %8s %7s\n' shape path thr us_cold_min us_cold_med GBps_med memGBps memLow frac_min frac_med max_rel_err GFLOPs peak of_peak
flags_for() {
  case $1 in
    f32) echo --verify --tolerance=1e-5 ;;
    packed) echo --packed-weights --verify --tolerance=1e-5 ;;
    int8) echo --int8-activations --verify --tolerance=1e-2 ;;
    packed-int8) echo --packed-weights --int8-activations --verify --tolerance=1e-2 ;;
    int4) echo --verify --tolerance=1e-5 ;;
    int4-int8) echo --int8-activations --verify --tolerance=1e-2 ;;
    prefill) echo --strategy-row=prefill-f32/avx512 \
                  --verify --tolerance=1e-5 --min-time-ms=2000 ;;
    prefill-int4) echo --strategy-row=prefill-int4-f32/avx512 \
                  --verify --tolerance=1e-5 --min-time-ms=2000 ;;
    prefill-int8) echo --strategy-row=prefill-int8/vnni \
                  --verify --tolerance=1e-2 --min-time-ms=2000 ;;
    prefill-int4-int8) echo --strategy-row=prefill-int4-int8/vnni \
                  --verify --tolerance=1e-2 --min-time-ms=2000 ;;
  esac
}
# The kernel of a path: 4-bit weights for the int4 paths, else 8-bit.
weights_for() {
  case $1 in
    int4*|*-int4|*-int4-*) echo int4 ;;
    *) echo int8 ;;
  esac
}

for shape in "${shapes[@]}"; do
  read -r n g k m <<< "$shape"
  name="${n}x${g}x${k}${m:+x$m}"
  python3 "$repo_root/examples/gen_decode_kernel.py" "$n" "$g" "$k" --batch "${m:-1}" \
    > "$out_dir/decode_${name}_int8.mlir"
  python3 "$repo_root/examples/gen_decode_kernel.py" "$n" "$g" "$k" --batch "${m:-1}" --int4 \
    > "$out_dir/decode_${name}_int4.mlir"
  for path in $paths; do
    for threads in $thread_counts; do
      : > "$out_dir/decode_${name}_${path}_${threads}t.jsonl"
    done
  done
  # Runs outermost: the configurations alternate, so a slow spell of the
  # shared machine falls on all of them alike.
  for ((run = 0; run < runs; run++)); do
    for path in $paths; do
      for threads in $thread_counts; do
        results="$out_dir/decode_${name}_${path}_${threads}t.jsonl"
        kernel="$out_dir/decode_${name}_$(weights_for "$path").mlir"
        # A failing run (verification, or no VNNI for int8) is reported and
        # the other configurations still run.
        # shellcheck disable=SC2046
        if ! line=$("$build_dir/bin/qforge-bench" "$kernel" $(flags_for "$path") \
                      --threads="$threads" --json 2>"$results.err" | tail -n 1) \
           || [[ $line != "{"* ]]; then
          echo "$name $path ${threads}t: qforge-bench failed: $(tail -n 1 "$results.err")" >&2
          continue
        fi
        echo "$line" >> "$results"
      done
    done
  done
  for path in $paths; do
    for threads in $thread_counts; do
      results="$out_dir/decode_${name}_${path}_${threads}t.jsonl"
      [[ -s "$results" ]] || continue
      python3 - "$results" "$name" "$path" "$threads" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
if not all(r["verified"] for r in rows):
    sys.exit(f"{sys.argv[2]} {sys.argv[3]}: verification failed")
cold = [r["us_cold_median"] for r in rows]
frac = [r["bw_fraction_cold"] for r in rows]
gbps = [r["gbps_cold"] for r in rows]
mem = [r["mem_read_gbps"] for r in rows]
# The slowest read pass of each run (its spread below the best, which is
# the denominator of the fractions).
mem_low = [r.get("mem_read_gbps_min", r["mem_read_gbps"]) for r in rows]
err = max(r["max_rel_err"] for r in rows)
gflops = [r["gflops_cold"] for r in rows]
peak_key = "int8_dot_peak_gops" if "int8" in sys.argv[3] else "fma_peak_gflops"
peaks = [r[peak_key] for r in rows]
of_peak = [g / p if p else 0.0 for g, p in zip(gflops, peaks)]
print(f"{sys.argv[2]:<17} {sys.argv[3]:<12} {sys.argv[4]:>3} {min(cold):10.1f} "
      f"{statistics.median(cold):10.1f} {statistics.median(gbps):8.2f} "
      f"{statistics.median(mem):8.2f} {min(mem_low):8.2f} {min(frac):8.3f} "
      f"{statistics.median(frac):8.3f} {err:9.2e} {statistics.median(gflops):8.1f} "
      f"{statistics.median(peaks):8.1f} {statistics.median(of_peak):7.3f}")
PY
    done
  done
done
printf 'load average after: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
