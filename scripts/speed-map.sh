#!/usr/bin/env bash
# The speed map of every path over N, K, groups and M (scripts/speed-map.py:
# its docstring says what each cell is). Builds first if needed.
#
#   scripts/speed-map.sh --quick            # a few cells per path, minutes
#   scripts/speed-map.sh                    # 4 shapes x 6 M
#   scripts/speed-map.sh --full             # the whole grid, hours
#   scripts/speed-map.sh --paths f32,packed --svg docs/measurements/data/DATE-MACHINE-speed-map.svg
#   scripts/speed-map.sh --rounds 3         # each cell's median of 3 runs
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo_root/scripts/setup.sh" > /dev/null
exec python3 "$repo_root/scripts/speed-map.py" "$@"
