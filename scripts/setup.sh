#!/usr/bin/env bash
# Installs what qforge needs on Debian 12 (only what is missing) and builds it.
# Idempotent: a second run installs nothing and rebuilds only what changed.
#
#   scripts/setup.sh            # install + configure + build into ./build
#   QFORGE_BUILD_DIR=dir scripts/setup.sh
#   scripts/setup.sh --packages-only   # install, build nothing
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${QFORGE_BUILD_DIR:-$repo_root/build}"

# Debian's LLVM/MLIR 22.1 toolchain; libzstd-dev satisfies LLVMSupport's
# exported link interface; libomp runs kernels whose strategy uses threads;
# clang-format-22 checks the C++ formatting (scripts/check-format.sh);
# libclang-rt-22-dev holds the sanitizer and libFuzzer runtimes
# (scripts/sanitize.sh, scripts/fuzz.sh).
packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
          clang-format-22 libomp-22-dev libclang-rt-22-dev cmake ninja-build
          libzstd-dev python3)
# npm fetches ggml's prebuilt library, the GGUF kernels' oracle
# (scripts/install-ggml.sh): CI installs it, so that the tests against ggml
# run there; elsewhere it is used when present. Only when the command is
# missing: a Node.js from elsewhere (NodeSource's bundles npm) conflicts with
# Debian's npm package.
if [[ "${CI:-}" == true ]] && ! command -v npm > /dev/null; then
  packages+=(npm)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "qforge setup: installing ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then sudo=(); else sudo=(sudo); fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

[[ "${1:-}" == --packages-only ]] && exit 0

if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -S "$repo_root" -B "$build_dir" -G Ninja
fi
# Two cores: two compile jobs peak at ~5 GB, well inside the machine.
ninja -C "$build_dir"
"$repo_root/scripts/install-ggml.sh" "$build_dir"
