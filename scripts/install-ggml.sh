#!/usr/bin/env bash
# Installs ggml's own library -- the oracle the GGUF kernels are checked
# against (qforge-bench --oracle=ggml, qforge-gguf --check-ggml;
# docs/gguf.md) -- into a build folder: the prebuilt shared libraries of the
# npm package @node-llama-cpp/linux-x64, at a pinned version whose tarball's
# SHA-1 is checked, unpacked with tar (npm pack; nothing is installed
# globally and nothing runs from the package). Idempotent. Where npm is
# missing it prints why and installs nothing (the lit tests that need ggml
# are then unsupported; CI installs npm, scripts/setup.sh).
#
#   scripts/install-ggml.sh [BUILD_DIR]
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-${QFORGE_BUILD_DIR:-$repo_root/build}}"
package="@node-llama-cpp/linux-x64@3.22.1"
sha1="cf9934edd4cf034260358123d65f9f8c9fb6b5fd"
target="$build_dir/ggml"

if [[ -f "$target/installed" && "$(cat "$target/installed")" == "$package" ]]; then
  exit 0
fi
if ! command -v npm > /dev/null; then
  echo "qforge setup: npm is missing, so ggml's library ($package) is not" \
       "installed: the tests against ggml are unsupported (apt-get install npm)"
  exit 0
fi
echo "qforge setup: installing ggml's library from $package into $target"
rm -rf "$target"
mkdir -p "$target"
(cd "$target" && npm pack --silent "$package" > /dev/null)
tarball=("$target"/*.tgz)
if [[ ${#tarball[@]} -ne 1 || ! -f "${tarball[0]}" ]]; then
  echo "qforge setup: error: npm pack $package wrote no tarball" >&2
  exit 1
fi
actual="$(sha1sum "${tarball[0]}" | cut -d' ' -f1)"
if [[ "$actual" != "$sha1" ]]; then
  echo "qforge setup: error: $package has SHA-1 $actual, not the pinned $sha1" >&2
  rm -rf "$target"
  exit 1
fi
tar -xzf "${tarball[0]}" -C "$target" package/bins/linux-x64 package/LICENSE package/package.json
rm -f "${tarball[0]}"
echo "$package" > "$target/installed"
