#!/usr/bin/env bash
# Regenerates docs/ops/QForgeTransformOps.md from the op descriptions in
# lib/TransformOps/QForgeTransformOps.td (the same generator as
# `ninja mlir-doc`). test/Docs/ops-doc-up-to-date.mlir fails when the
# committed copy is stale.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
/usr/lib/llvm-22/bin/mlir-tblgen -gen-op-doc -I /usr/lib/llvm-22/include \
  "$repo_root/lib/TransformOps/QForgeTransformOps.td" \
  > "$repo_root/docs/ops/QForgeTransformOps.md"
