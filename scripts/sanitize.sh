#!/usr/bin/env bash
# The sanitizer run: a second build with AddressSanitizer + UndefinedBehavior-
# Sanitizer (cmake -DQFORGE_SANITIZE=ON, in build-san/), the lit suite on its
# tools, and the libFuzzer targets for a while each (scripts/fuzz.sh):
#
#   scripts/sanitize.sh [--build-only] [--fuzz-seconds N]
#
# --build-only     configure and build, run nothing;
# --fuzz-seconds N how long each fuzz target runs (default 60; 0: none).
# Exits non-zero when a test fails (a sanitizer report fails its test) or a
# fuzz target finds something. scripts/test.sh runs it when CI=true. lit
# prints its slowest tests (--time-tests): the run must stay well inside
# CI's 30 minutes.
set -euo pipefail

build_only=false
fuzz_seconds=60
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-only) build_only=true; shift ;;
    --fuzz-seconds) [[ $# -ge 2 && "$2" =~ ^[0-9]+$ ]] || { echo "usage: $0 [--build-only] [--fuzz-seconds N]" >&2; exit 2; }
                    fuzz_seconds="$2"; shift 2 ;;
    *) echo "usage: $0 [--build-only] [--fuzz-seconds N]" >&2; exit 2 ;;
  esac
done

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_SANITIZE_BUILD_DIR:-$repo_root/build-san}"
export QFORGE_SANITIZE_BUILD_DIR="$build_dir"

# The packages (libclang-rt-22-dev holds the sanitizer and libFuzzer
# runtimes) and the release build's prerequisites.
QFORGE_BUILD_DIR="${QFORGE_BUILD_DIR:-$repo_root/build}" "$repo_root/scripts/setup.sh" --packages-only
if [[ ! -f "$build_dir/build.ninja" ]]; then
  # -O1: the instrumented objects build faster; the time of a test is in
  # the uninstrumented libMLIR/libLLVM and in the kernels it compiles.
  cmake -S "$repo_root" -B "$build_dir" -G Ninja -DQFORGE_SANITIZE=ON \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG"
fi
ninja -C "$build_dir"
"$repo_root/scripts/install-ggml.sh" "$build_dir"
$build_only && exit 0

status=0
start=$SECONDS
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -s --time-tests "$build_dir/test" 2>&1 | tee "$log" || status=$?
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
echo "qforge sanitizers (ASan + UBSan): lit ${passed:-0} passed, ${failed:-0} failed in $((SECONDS - start)) s"

if [[ "$fuzz_seconds" -gt 0 ]]; then
  for target in kernel script bytecode gguf; do
    "$repo_root/scripts/fuzz.sh" "$target" "$fuzz_seconds" || status=1
  done
fi
exit "$status"
