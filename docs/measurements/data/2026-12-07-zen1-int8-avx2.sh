#!/usr/bin/env bash
# Zen 1 int8 AVX2 campaign: the unsigned two-vpmaddubsw rows vs the magnitude-times-sign rows.
set -u
Q=/work/main/build/bin
G=/work/main/examples
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2) model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u)"
python3 $G/gen_decode_kernel.py 4096 32 128 > seed.mlir
python3 $G/gen_decode_kernel.py 11008 32 128 > up.mlir
python3 $G/gen_decode_kernel.py 64 32 128 > l2.mlir
python3 $G/gen_decode_kernel.py 4096 32 128 --batch 128 > prefill.mlir
python3 $G/gen_gguf_kernel.py q8_0 4096 4096 > q8.mlir
for k in seed up; do
  $Q/qforge-compile $k.mlir --strategy-row=decode-int8/8-lanes-no-avx512vnni --emit=shared -o $k.old.so
  $Q/qforge-compile $k.mlir --strategy-row=decode-int8/8-lanes-avx2 --emit=shared -o $k.new.so
done
echo "== A: decode int8, cold, in-process A/B (qforge-ab, OMP_NUM_THREADS=1), old = 8-lanes-no-avx512vnni, new = 8-lanes-avx2"
OMP_NUM_THREADS=1 $Q/qforge-ab 4096 32 128 seed.old.so seed.new.so 2>&1 | tail -3
OMP_NUM_THREADS=1 $Q/qforge-ab 11008 32 128 up.old.so up.new.so 2>&1 | tail -3
echo "== A2: the same, 2 threads"
OMP_NUM_THREADS=2 $Q/qforge-ab 4096 32 128 seed.old.so seed.new.so 2>&1 | tail -3
echo "== B: hot, L2-resident 64x32x128 (256 KiB), 1 thread, three runs each, alternating"
for i in 1 2 3; do for row in 8-lanes-no-avx512vnni 8-lanes-avx2; do
  echo "$row: $($Q/qforge-bench l2.mlir --strategy-row=decode-int8/$row --threads=1 2>&1 | grep -E '^hot|arithmetic' | tr '\n' ' ')"
done; done
echo "== C: prefill M = 128, int8, 1 thread, two runs each, alternating (prefill-int8/vnni vs prefill-int8/avx2)"
for i in 1 2; do for row in vnni avx2; do
  echo "$row: $($Q/qforge-bench prefill.mlir --strategy-row=prefill-int8/$row --threads=1 2>&1 | grep -E '^hot|^cold|compute|arithmetic' | tr '\n' ' ')"
done; done
echo "== C2: prefill M = 128, int8, 2 threads (avx2 row)"
$Q/qforge-bench prefill.mlir --int8-activations --threads=2 --verify 2>&1 | grep -E 'PASS|FAIL|^hot|^cold|compute|arithmetic'
echo "== D: packed int8 decode, 1 thread (decode-packed-int8/vnni vs /avx2)"
for row in vnni avx2; do
  echo "$row: $($Q/qforge-bench seed.mlir --strategy-row=decode-packed-int8/$row --threads=1 2>&1 | grep -E '^hot|^cold|memory read' | tr '\n' ' ')"
done
echo "== E: GGUF q8_0 4096x4096 decode with int8 activations, in place, verified, against ggml in the same run"
$Q/qforge-bench q8.mlir --int8-activations --threads=1 --verify --oracle=ggml --peer=ggml 2>&1 | grep -vE '^qforge-bench:'
echo "== E2: the same with the old row (timing only)"
$Q/qforge-bench q8.mlir --strategy-row=decode-int8/8-lanes-no-avx512vnni --threads=1 2>&1 | grep -E '^hot|^cold|memory read'
echo "done: $(date -u)"
