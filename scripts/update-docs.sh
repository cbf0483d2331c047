#!/usr/bin/env bash
# Regenerates the committed references from their TableGen descriptions (the
# same generators as `ninja mlir-doc`):
#   docs/ops/QForgeTransformOps.md  from lib/TransformOps/QForgeTransformOps.td
#   docs/ops/QForgeQuantPasses.md   from lib/Quant/Passes.td
# test/Docs/ops-doc-up-to-date.mlir fails when a committed copy is stale.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tblgen=/usr/lib/llvm-22/bin/mlir-tblgen
"$tblgen" -gen-op-doc -I /usr/lib/llvm-22/include \
  "$repo_root/lib/TransformOps/QForgeTransformOps.td" \
  > "$repo_root/docs/ops/QForgeTransformOps.md"
"$tblgen" -gen-pass-doc -I /usr/lib/llvm-22/include \
  "$repo_root/lib/Quant/Passes.td" \
  > "$repo_root/docs/ops/QForgeQuantPasses.md"
