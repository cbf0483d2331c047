// 4-bit weights compile to vector nibble extraction, not scalar code: no
// vpinsrb and no byte shifts in the kernel (up to its C wrapper). The
// packing function, run once, gathers whole bytes.
// RUN: %gen_kernel 64 4 128 --int4 > %t.mlir

// f32 activations (decode-packed-int4-avx512.mlir): per 64-byte line, the
// low nibbles by a mask, the high ones by one shift, each widened and
// converted to 4 x 16 f32 for 4 FMAs.
// RUN: qforge-compile %t.mlir --mcpu=sapphirerapids --emit=asm -o - | FileCheck %s --check-prefix=F32
// F32-LABEL: quantized_matmul:
// F32:         vpandq
// F32-COUNT-4: vpmovzxbd {{.*}}%zmm
// F32:         vfmadd{{[0-9]+}}ps
// F32:         {{vgf2p8affineqb|vpsrlw}}
// F32-COUNT-4: vpmovzxbd {{.*}}%zmm
// F32:         vfmadd{{[0-9]+}}ps
// F32-NOT:     vpinsrb
// F32-NOT:     shrb
// F32-LABEL: _mlir_ciface_quantized_matmul:

// int8 activations (decode-packed-int4-vnni.mlir): per 64-byte line, two
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
