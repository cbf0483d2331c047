#!/bin/bash
# Compile times before and after this stop's two compile-time changes
# (Zen 1, 2 cores): scripts/bench-compile.sh (best of 5 per module) with
# REF_BUILD (a build of 8b18170: bin/ and lib/, its transforms/ taken with
# git archive) and with build/ (the working tree), alternated, two rounds.
# Run from the repository root.
set -euo pipefail
REF_BUILD=${REF_BUILD:?a build folder of 8b18170}
ref_transforms=$(mktemp -d)
git archive 8b18170 transforms | tar -x -C "$ref_transforms"
for round in 1 2; do
  echo "## before (8b18170), round $round, $(date -u +%H:%M) UTC"
  QFORGE_TRANSFORMS_DIR="$ref_transforms/transforms" LD_LIBRARY_PATH="$REF_BUILD/lib" \
    QFORGE_BUILD_DIR="$REF_BUILD" ROUNDS=5 LAYERS=32 scripts/bench-compile.sh
  echo "## after ($(git rev-parse --short HEAD)), round $round, $(date -u +%H:%M) UTC"
  ROUNDS=5 LAYERS=32 scripts/bench-compile.sh
done
rm -rf "$ref_transforms"
