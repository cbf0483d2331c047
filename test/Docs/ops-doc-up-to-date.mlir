// The committed op and pass references are what the .td descriptions
// generate (regenerate with scripts/update-docs.sh).
// RUN: mlir-tblgen -gen-op-doc -I %llvm_include %qforge_src/lib/TransformOps/QForgeTransformOps.td > %t.ops.md
// RUN: diff -u %qforge_src/docs/ops/QForgeTransformOps.md %t.ops.md
// RUN: mlir-tblgen -gen-pass-doc -I %llvm_include %qforge_src/lib/Quant/Passes.td > %t.passes.md
// RUN: diff -u %qforge_src/docs/ops/QForgeQuantPasses.md %t.passes.md
