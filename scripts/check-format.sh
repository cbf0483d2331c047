#!/usr/bin/env bash
# Fails (status 1) when a tracked C++ file is not formatted as .clang-format
# says (LLVM style, as llvm-project's), naming each file and the first
# offending line; scripts/test.sh runs it before the lit suite, so CI fails
# on unformatted C++. Fix with:
#   git ls-files '*.cpp' '*.h' | xargs /usr/lib/llvm-22/bin/clang-format -i
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
clang_format=/usr/lib/llvm-22/bin/clang-format
if [[ ! -x "$clang_format" ]]; then
  echo "check-format: $clang_format not found (scripts/setup.sh installs clang-format-22)" >&2
  exit 1
fi
cd "$repo_root"
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find lib tools -name '*.cpp' -o -name '*.h')
unformatted=()
for file in "${files[@]}"; do
  if ! "$clang_format" --dry-run --Werror "$file" 2>"${TMPDIR:-/tmp}/check-format.$$"; then
    unformatted+=("$file")
    grep -m1 'error:' "${TMPDIR:-/tmp}/check-format.$$" || true
  fi
done
rm -f "${TMPDIR:-/tmp}/check-format.$$"
if ((${#unformatted[@]})); then
  echo "check-format: ${#unformatted[@]} C++ file(s) not formatted: ${unformatted[*]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} C++ files formatted (.clang-format)"
