#!/usr/bin/env bash
# In-process A/B of packed f32 decode strategies: compiles the seed-form
# kernel of shape N x G x K (default the seed, 4096 x 32 x 128) with each
# transform script given, as a shared library, and runs them alternately in
# one qforge-ab process over the same rotating inputs (tools/qforge-ab). The
# scripts must keep the packed strategy's layout (64-row tiles), e.g. edited
# copies of transforms/decode-packed-avx512.mlir; qforge-bench --verify
# checks their results.
#
#   scripts/ab.sh transforms/decode-packed-avx512.mlir my-variant.mlir
#   N=4096 G=86 OMP_NUM_THREADS=2 scripts/ab.sh a.mlir b.mlir
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
n="${N:-4096}" g="${G:-32}" k="${K:-128}"
if [[ $# -lt 1 ]]; then
  echo "usage: [N=.. G=.. K=..] scripts/ab.sh SCRIPT.mlir [SCRIPT.mlir ...]" >&2
  exit 2
fi

"$repo_root/scripts/setup.sh" >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$repo_root/examples/gen_decode_kernel.py" "$n" "$g" "$k" > "$work/kernel.mlir"
libraries=()
index=0
for script in "$@"; do
  # Numbered: two scripts of the same name (an edited copy) stay apart.
  index=$((index + 1))
  library="$work/$index-$(basename "${script%.mlir}").so"
  "$build_dir/bin/qforge-compile" "$work/kernel.mlir" --script="$script" \
    --emit=shared -o "$library"
  libraries+=("$library")
done
OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" "$build_dir/bin/qforge-ab" "$n" "$g" "$k" "${libraries[@]}"
