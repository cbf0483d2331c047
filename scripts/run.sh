#!/usr/bin/env bash
# The main job: set up (install + build) if needed, then run the bundled seed
# kernel through its transform script and show the IR before and after.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
kernel="$repo_root/examples/seed_decode_4096x32x128.mlir"
script="$repo_root/transforms/match-and-simplify-dequant.mlir"

"$repo_root/scripts/setup.sh"

echo "== seed kernel: $kernel"
cat "$kernel"
echo
echo "== after $script"
"$build_dir/bin/qforge-opt" "$kernel" \
  --transform-preload-library="transform-library-paths=$script" \
  --transform-interpreter
