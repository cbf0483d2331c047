#!/usr/bin/env bash
# The random-shape sweep (scripts/sweep.py): every strategy family at random
# shapes, spellings and element types, each verified against the reference.
#   scripts/sweep.sh --count 200          # the full sweep (docs/reliability.md)
#   scripts/sweep.sh --count 3 --seed 7   # the sample CI runs (test/Bench/sweep-sample.test)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$repo_root/scripts/sweep.py" "$@"
