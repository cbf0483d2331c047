// The committed op reference is what the .td descriptions generate
// (regenerate with scripts/update-docs.sh).
// RUN: mlir-tblgen -gen-op-doc -I %llvm_include %qforge_src/lib/TransformOps/QForgeTransformOps.td > %t.md
// RUN: diff -u %qforge_src/docs/ops/QForgeTransformOps.md %t.md
