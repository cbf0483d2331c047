#!/usr/bin/env bash
# The whole test suite: set up (install + build) if needed, check the C++
# formatting (scripts/check-format.sh), then every lit test (`ninja
# check-qforge`). Exits non-zero when the formatting or any test fails.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"

"$repo_root/scripts/setup.sh"

format_status=0
"$repo_root/scripts/check-format.sh" || format_status=$?

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
ninja -C "$build_dir" check-qforge 2>&1 | tee "$log" || status=$?

passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
echo "qforge lit: ${passed:-0} passed, ${failed:-0} failed"
if [[ -z "$passed" || "$passed" -eq 0 ]]; then
  echo "qforge lit: no test ran" >&2
  exit 1
fi
# CI also builds the Debian package and lists it (scripts/package.sh; the
# lit test Tools/package-deb.test checks its contents), then the sanitizer
# run: the ASan + UBSan build, the lit suite on it, and each libFuzzer
# target for 60 s (scripts/sanitize.sh, docs/reliability.md).
if [[ "${CI:-}" == true && "$status" -eq 0 ]]; then
  "$repo_root/scripts/package.sh" || status=$?
  "$repo_root/scripts/sanitize.sh" --fuzz-seconds 60 || status=$?
fi
if [[ "$format_status" -ne 0 ]]; then
  echo "qforge: C++ formatting check failed (see above)" >&2
  exit 1
fi
exit "$status"
