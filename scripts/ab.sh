#!/usr/bin/env bash
# In-process A/B of decode kernels: compiles each one as a shared library and
# runs them alternately in one qforge-ab process over the same rotating
# inputs (tools/qforge-ab), so that a slow spell of the shared machine falls
# on every kernel alike. Two ways to name the kernels:
#
#   scripts/ab.sh SCRIPT.mlir ...
#       the seed-form kernel of shape N x G x K (default the seed,
#       4096 x 32 x 128) compiled with each transform script, e.g. edited
#       copies of transforms/decode-packed-f32.mlir;
#   scripts/ab.sh --kernels KERNEL.mlir ...
#       each kernel file compiled by the driver's own strategy choice with
#       FLAGS (e.g. FLAGS=--packed-weights): the same matmul written in
#       several producers' forms (examples/gen_producer_kernel.py) against
#       the seed's form. Each must read the seed's bytes in the seed's order
#       (weights, scales, zero points, activation; one f32 result) under any
#       shapes -- a kernel compiled for static shapes reads its own sizes.
#
# Timing only: qforge-bench --verify checks each kernel's results.
#
#   scripts/ab.sh transforms/decode-packed-f32.mlir my-variant.mlir
#   N=4096 G=86 OMP_NUM_THREADS=2 scripts/ab.sh a.mlir b.mlir
#   N=11008 FLAGS=--int8-activations scripts/ab.sh --kernels seed.mlir iree.mlir
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
n="${N:-4096}" g="${G:-32}" k="${K:-128}"
kernels=false
if [[ "${1:-}" == --kernels ]]; then
  kernels=true
  shift
fi
if [[ $# -lt 1 ]]; then
  echo "usage: [N=.. G=.. K=..] scripts/ab.sh SCRIPT.mlir [SCRIPT.mlir ...]" >&2
  echo "       [N=.. G=.. K=..] [FLAGS=..] scripts/ab.sh --kernels KERNEL.mlir ..." >&2
  exit 2
fi
read -r -a flags <<< "${FLAGS:-}"

"$repo_root/scripts/setup.sh" >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$repo_root/examples/gen_decode_kernel.py" "$n" "$g" "$k" > "$work/kernel.mlir"
libraries=()
index=0
for item in "$@"; do
  # Numbered: two files of the same name (an edited copy) stay apart.
  index=$((index + 1))
  library="$work/$index-$(basename "${item%.mlir}").so"
  if $kernels; then
    "$build_dir/bin/qforge-compile" "$item" "${flags[@]}" --emit=shared -o "$library"
  else
    "$build_dir/bin/qforge-compile" "$work/kernel.mlir" --script="$item" \
      --emit=shared -o "$library"
  fi
  libraries+=("$library")
done
OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" "$build_dir/bin/qforge-ab" "$n" "$g" "$k" "${libraries[@]}"
