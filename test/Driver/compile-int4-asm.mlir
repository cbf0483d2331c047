// 4-bit weights compile to vector nibble extraction, not scalar code: no
// vpinsrb and no byte shifts in the kernel (up to its C wrapper). The
// packing function, run once, gathers whole bytes.
// RUN: %gen_kernel 64 4 128 --int4 > %t.mlir

// f32 activations (decode-packed-int4-f32.mlir): per 64-byte line, 4
// widenings of 16 bytes from memory; each widened vector looked up in the
// table of the 16 nibble values (vpermps / vpermd, which read the low 4
// bits of a lane: the low nibble) for 4 FMAs, then shifted by 4 and looked
// up again (the high nibble) -- no conversion, no mask, no extract
// (apply_patterns.qforge.x86_nibble_tables).
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=asm -o - | FileCheck %s --check-prefix=F32
// F32-LABEL: quantized_matmul:
// F32-COUNT-4: vpmovzxbd {{-?[0-9]*}}(%{{[a-z0-9]+}},{{.*}}), %zmm
// F32:         vperm{{d|ps}} %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
// F32:         vfmadd{{[0-9]+}}ps
// F32:         vpsrld $4, %zmm
// F32:         vperm{{d|ps}} %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm
// F32:         vfmadd{{[0-9]+}}ps
// F32-NOT:     vcvtdq2ps
// F32-NOT:     vpinsrb
// F32-NOT:     shrb
// F32-LABEL: _mlir_ciface_quantized_matmul:

// The same script for an AVX2 target: no vpermps of 512 bits there, so each
// lookup is the conversion it stands for, (byte & 15) to f32, in ymm
// registers -- not an abort in LLVM's instruction selection
// (test/Bench/verify-int4-strategy.mlir runs it).
// RUN: qforge-compile %t.mlir --strategy-row=decode-packed-int4-f32/avx512 --mcpu=haswell --emit=asm -o %t.avx2.s
// RUN: not grep -q zmm %t.avx2.s
// RUN: FileCheck %s --check-prefix=AVX2 < %t.avx2.s
// AVX2-LABEL: quantized_matmul:
// AVX2:         vpand
// AVX2:         vcvtdq2ps %ymm
// AVX2:         vfmadd{{[0-9]+}}ps {{.*}}%ymm
// AVX2-LABEL: _mlir_ciface_quantized_matmul:

// int8 activations (decode-packed-int4-int8.mlir): per 64-byte line, two
// vpdpbusd on the masked low and shifted high nibbles against broadcast
// activation bytes (a group's in 4 independent sums, so consecutive ones
// into different accumulators); no per-weight widening.
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --int8-activations --emit=asm -o - | FileCheck %s --check-prefix=VNNI
// VNNI-LABEL: quantized_matmul:
// VNNI:        vpandq
// VNNI:        vpdpbusd %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// VNNI:        {{vgf2p8affineqb|vpsrlw}}
// VNNI:        vpdpbusd %zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// VNNI-NOT:    vpmovzxbd
// VNNI-NOT:    vpinsrb
// VNNI-NOT:    shrb
// VNNI-LABEL: _mlir_ciface_quantized_matmul:
