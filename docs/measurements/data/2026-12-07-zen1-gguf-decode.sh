#!/usr/bin/env bash
Q=/work/main/build/bin
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), family 23 model 1 (Zen 1, znver1), $(nproc) cores; $(date -u)"
for t in q8_0 q4_0 q4_K q5_K q6_K; do
  python3 /work/main/examples/gen_gguf_kernel.py $t 4096 4096 > g_$t.mlir
  for flags in "" "--int8-activations"; do
    echo "== $t decode 4096x4096 ${flags:-f32 activations}, 1 thread, in place"
    $Q/qforge-bench g_$t.mlir $flags --threads=1 --verify --oracle=ggml --peer=ggml 2>&1 | grep -E "against ggml|^cold|^hot|memory read bandwidth|peer ggml"
  done
done
echo "done $(date -u)"
