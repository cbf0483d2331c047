#!/usr/bin/env bash
# The main job: set up (install + build) if needed, compile the bundled seed
# kernel with the decode strategy qforge picks for this CPU (AVX-512 or AVX2;
# docs/scripts.md) to a shared library + C header, then benchmark it: verify
# against the scalar reference and print the speed, hot and cold, next to
# the memory read bandwidth measured in the same run.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
kernel="$repo_root/examples/seed_decode_4096x32x128.mlir"
out_dir="$build_dir/seed"

"$repo_root/scripts/setup.sh"

mkdir -p "$out_dir"
echo "== compiling $kernel"
"$build_dir/bin/qforge-compile" "$kernel" \
  --emit=shared -o "$out_dir/seed_decode.so" --header="$out_dir/seed_decode.h"
echo "   -> $out_dir/seed_decode.so, $out_dir/seed_decode.h"

echo "== benchmarking (verify against the scalar reference, then time)"
"$build_dir/bin/qforge-bench" "$kernel" --verify
