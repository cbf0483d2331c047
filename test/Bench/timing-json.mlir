// The timing run on a small kernel (short budget, small rotation): every
// figure the JSON line promises is there, and the run verifies.
// RUN: %gen_kernel 64 4 128 > %t.mlir
// RUN: qforge-bench %t.mlir --verify --json --rotate-mib=4 --min-time-ms=20 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=PROGRESS < %t.err
// The kernel's freed temporaries go back to the system only on request
// (docs/abi.md): the run reports which.
// RUN: qforge-bench %t.mlir --json --rotate-mib=4 --min-time-ms=20 --keep-freed-memory=false 2>/dev/null | FileCheck %s --check-prefix=RETURNED
// RETURNED: "keep_freed_memory":false}

// CHECK: verify: {{.*}}: PASS
// CHECK: hot : min {{[0-9.]+}} us, median {{[0-9.]+}} us ({{[0-9]+}} calls), {{[0-9.]+}} GB/s
// CHECK: cold: min {{[0-9.]+}} us, median {{[0-9.]+}} us ({{[0-9]+}} calls over {{[0-9]+}} copies, 4 MiB)
// CHECK: memory read bandwidth, same run: {{[0-9.]+}} GB/s; cold median reaches {{[0-9.]+}}%
// CHECK-NEXT: (best of 18 read passes over the cold copies, half before and half after the cold calls: {{[0-9.]+}}-{{[0-9.]+}} GB/s, median {{[0-9.]+}}; plain loads best {{[0-9.]+}}, with software prefetch best {{[0-9.]+}}, four streams side by side best {{[0-9.]+}})
// 2 x 64 rows x 4 groups x 128 = 65536 flops per call.
// CHECK: compute: 6.55e-05 GFLOP per call (contraction, 2 per multiply-add); hot {{[0-9.]+}} GFLOP/s, cold {{[0-9.]+}} GFLOP/s (medians)
// CHECK: arithmetic peak, same run: f32 multiply-add {{[0-9.]+}} GFLOP/s, int8 dot product {{[0-9.]+}} GOP/s (0: not on this CPU)
// CHECK: {"func":"quantized_matmul","threads":1,"verified":true,"max_abs_err":{{[0-9.e+-]+}},"max_rel_err":{{[0-9.e+-]+}},"us_hot_min":{{[0-9.e+-]+}},"us_hot_median":{{[0-9.e+-]+}},"us_cold_min":{{[0-9.e+-]+}},"us_cold_median":{{[0-9.e+-]+}},"bytes_per_call":36864,"gbps_hot":{{[0-9.e+-]+}},"gbps_cold":{{[0-9.e+-]+}},"gbps_cold_best":{{[0-9.e+-]+}},"mem_read_gbps":{{[0-9.e+-]+}},"mem_read_gbps_min":{{[0-9.e+-]+}},"mem_read_gbps_median":{{[0-9.e+-]+}},"mem_read_gbps_plain":{{[0-9.e+-]+}},"mem_read_gbps_prefetched":{{[0-9.e+-]+}},"mem_read_gbps_streams":{{[0-9.e+-]+}},"mem_read_passes":18,"bw_fraction_cold":{{[0-9.e+-]+}},"rotate_bytes":{{[0-9]+}},"llc_bytes":{{[0-9]+}},"flops_per_call":65536,"gflops_hot":{{[0-9.e+-]+}},"gflops_cold":{{[0-9.e+-]+}},"fma_peak_gflops":{{[0-9.e+-]+}},"int8_dot_peak_gops":{{[0-9.e+-]+}},"keep_freed_memory":true}

// PROGRESS: qforge-bench: compiling @quantized_matmul with {{.*}}decode-f32.mlir
// PROGRESS: qforge-bench: timing, hot
// PROGRESS: qforge-bench: note: rotating over less than 4x the last-level cache ({{[0-9]+}} MiB): the cold figures are not DRAM-bound
// PROGRESS: qforge-bench: measuring the memory read bandwidth
// PROGRESS: qforge-bench: timing, cold
// PROGRESS: qforge-bench: measuring the memory read bandwidth again
// PROGRESS: qforge-bench: measuring the arithmetic peak

// The JSON line parses as JSON, also without --verify (errors are null then).
// RUN: qforge-bench %t.mlir --json --rotate-mib=4 --min-time-ms=20 2>/dev/null | tail -n 1 \
// RUN:   | %python -c "import json, sys; d = json.loads(sys.stdin.read()); assert d['max_abs_err'] is None and not d['verified'] and d['us_cold_median'] > 0 and d['fma_peak_gflops'] > 0, d"

// The denominator is the best of the passes, and the spread holds it:
// slowest <= median <= best, the best one of the two methods' bests, and
// the fraction the cold median over that best.
// RUN: qforge-bench %t.mlir --json --rotate-mib=4 --min-time-ms=20 2>/dev/null | tail -n 1 \
// RUN:   | %python -c "import json, sys; d = json.loads(sys.stdin.read()); best = d['mem_read_gbps']; assert 0 < d['mem_read_gbps_min'] <= d['mem_read_gbps_median'] <= best, d; assert best == max(d['mem_read_gbps_plain'], d['mem_read_gbps_prefetched'], d['mem_read_gbps_streams']), d; assert abs(d['bw_fraction_cold'] - d['gbps_cold'] / best) < 1e-9 * best, d"
