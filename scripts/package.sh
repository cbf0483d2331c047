#!/usr/bin/env bash
# Builds the Debian package of the current build (cpack -G DEB: the same
# files as `cmake --install`, under /usr/lib/qforge, depending on Debian's
# LLVM/MLIR 22 runtime) and prints its control data and contents.
#
#   scripts/package.sh [OUT_DIR]     (default build/package)
#
# Install it with `sudo apt install ./build/package/qforge_*_amd64.deb`;
# then /usr/lib/qforge/bin/qforge-compile, and find_package(QForge) with
# CMAKE_PREFIX_PATH=/usr/lib/qforge (docs/install.md).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"
out="$(mkdir -p "${1:-$build_dir/package}" && cd "${1:-$build_dir/package}" && pwd)"

rm -f "$out"/qforge_*.deb
(cd "$build_dir" && cpack -G DEB -B "$out" > "$out/cpack.log" 2>&1) || {
  cat "$out/cpack.log" >&2
  exit 1
}
deb="$(ls "$out"/qforge_*.deb)"
echo "package: $deb"
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"
