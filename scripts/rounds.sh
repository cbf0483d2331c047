#!/usr/bin/env bash
# Interleaved rounds of qforge-bench runs, for comparisons on a noisy shared
# machine that ab.sh cannot make (different signatures: a dynamic M against
# a static one, f16 against f32, packed against raw parameters): every round
# runs each configuration once, so a slow spell falls on all of them alike.
# Prints one JSON line per run (with "config" and "round" added) and then,
# per configuration, the medians over the rounds.
#
#   scripts/rounds.sh CONFIGS [ROUNDS]       (default 5 rounds)
#
# CONFIGS: one configuration per line, "name | qforge-bench arguments"
# (paths relative to the current directory; # starts a comment), e.g.
#   static-m1  | s1.mlir --packed-weights
#   dynamic-m1 | dyn.mlir --dim=M=1
# BENCH_FLAGS (default "--json --min-time-ms=1500") are added to each run.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${QFORGE_BUILD_DIR:-$repo_root/build}/bin/qforge-bench"
configs="${1:?usage: scripts/rounds.sh CONFIGS [ROUNDS]}"
rounds="${2:-5}"
flags="${BENCH_FLAGS:---json --min-time-ms=1500}"
results="$(mktemp)"
trap 'rm -f "$results"' EXIT

for round in $(seq 1 "$rounds"); do
  while IFS='|' read -r name args; do
    name="$(echo "$name" | xargs)"
    [[ -z "$name" || "$name" == \#* ]] && continue
    # shellcheck disable=SC2086
    line="$("$bench" $args $flags 2>/dev/null | grep '^{' | tail -n 1 || true)"
    if [[ -z "$line" ]]; then
      echo "rounds: '$name' produced no figures (run it alone to see why)" >&2
      continue
    fi
    echo "{\"config\":\"$name\",\"round\":$round,${line#\{}" | tee -a "$results"
  done < "$configs"
done

python3 - "$results" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    run = json.loads(line)
    runs.setdefault(run["config"], []).append(run)
print("config: rounds, cold / hot median us, read GB/s, fraction of it, GFLOP/s cold")
for name, rs in runs.items():
    med = lambda key: statistics.median(r[key] for r in rs)
    print(f"{name}: {len(rs)}, {med('us_cold_median'):.0f} / {med('us_hot_median'):.0f}, "
          f"{med('mem_read_gbps'):.1f}, {med('bw_fraction_cold'):.3f}, {med('gflops_cold'):.1f}")
PY
