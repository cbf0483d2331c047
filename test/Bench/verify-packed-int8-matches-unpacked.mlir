// The packed integer factoring (Inputs/pack-and-factor-int8.mlir, run as
// loops) matches the unpacked integer strategy (vpdpbusd) to 1e-6
// normalized on 48x3x64: the same activation quantization, another
// summation order. Both on the same random activations: the row's family
// says int8 activations, which the bench would otherwise draw exactly
// representable (the script run cannot say so).
// REQUIRES: avx2
// RUN: %gen_kernel 48 3 64 > %t.64.mlir
// RUN: qforge-bench %t.64.mlir --script=%S/Inputs/pack-and-factor-int8.mlir --verify --tolerance=1e-2 --time=false --save-results=%t.packed.bin | FileCheck %s
// RUN: qforge-bench %t.64.mlir --strategy-row=decode-int8/16-lanes --exact-int8-activations=false --verify --tolerance=1e-2 --time=false --save-results=%t.unpacked.bin | FileCheck %s
// RUN: %python -c "import struct,sys; a=open('%t.packed.bin','rb').read(); b=open('%t.unpacked.bin','rb').read(); fa=struct.unpack('%%df' %% (len(a)//4),a); fb=struct.unpack('%%df' %% (len(b)//4),b); d=max(abs(x-y) for x,y in zip(fa,fb))/max(abs(y) for y in fb); print('packed vs unpacked int8: %%.2e' %% d); sys.exit(d > 1e-6)"

// CHECK: verify: {{.*}}: PASS
