// What one core can convert and multiply-add per cycle, with the data in L2:
// the ceiling of every decode loop that turns int8 (or 4-bit) weights into
// f32 for FMAs against f32 activations (docs/benchmarks.md, "Zen 5").
// Hand-written AVX-512 loops of the default f32 decode's shape (128 rows x
// 4096 u8 weights, 512 KiB, groups of 128, four partial sums per group):
//   v0  vpmovzxbd (16 bytes -> 16 i32) + vcvtdq2ps + vfmadd  (qforge's loop)
//   v1  one 64-byte load, bytes taken apart by shift / and, cvt, fma
//   v2  v0 without the convert (wrong result: a bound, not a kernel)
//   v3  v1 without the mask (wrong result: a bound)
//   v4  4-bit: 16 bytes -> 16 i32 -> low / high nibble, 2 x (cvt, fma)
// Measurement only; not part of the build:
//   clang-22 -O2 -march=znver5 docs/measurements/convert-fma-ceiling.c && ./a.out
#include <immintrin.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#define N 128
#define K 4096
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
// variant 0: pmovzxbd from memory + cvt + fma, 4 partial sums per group
__attribute__((noinline)) void v0(const uint8_t*w,const float*x,float*out){
  for(int n=0;n<N;n++){ __m512 acc=_mm512_setzero_ps();
    for(int g=0;g<K/128;g++){ const uint8_t*wp=w+(size_t)n*K+g*128; const float*xp=x+g*128;
      __m512 p0=_mm512_setzero_ps(),p1=p0,p2=p0,p3=p0;
      for(int j=0;j<8;j+=4){
        p0=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j)))),_mm512_loadu_ps(xp+16*j),p0);
        p1=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+16)))),_mm512_loadu_ps(xp+16*j+16),p1);
        p2=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+32)))),_mm512_loadu_ps(xp+16*j+32),p2);
        p3=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+48)))),_mm512_loadu_ps(xp+16*j+48),p3);
      }
      acc=_mm512_add_ps(acc,_mm512_add_ps(_mm512_add_ps(p0,p1),_mm512_add_ps(p2,p3)));
    } out[n]=_mm512_reduce_add_ps(acc);}
}
// variant 1: 64-byte load, in-lane byte extraction by shift/and, cvt, fma (x pre-permuted)
__attribute__((noinline)) void v1(const uint8_t*w,const float*x,float*out){
  const __m512i m=_mm512_set1_epi32(0xFF);
  for(int n=0;n<N;n++){ __m512 acc=_mm512_setzero_ps();
    for(int g=0;g<K/128;g++){ const uint8_t*wp=w+(size_t)n*K+g*128; const float*xp=x+g*128;
      __m512 p0=_mm512_setzero_ps(),p1=p0,p2=p0,p3=p0;
      for(int c=0;c<2;c++){ __m512i v=_mm512_loadu_si512(wp+64*c);
        p0=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_and_si512(v,m)),_mm512_loadu_ps(xp+64*c),p0);
        p1=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(v,8),m)),_mm512_loadu_ps(xp+64*c+16),p1);
        p2=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(v,16),m)),_mm512_loadu_ps(xp+64*c+32),p2);
        p3=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(v,24)),_mm512_loadu_ps(xp+64*c+48),p3);
      }
      acc=_mm512_add_ps(acc,_mm512_add_ps(_mm512_add_ps(p0,p1),_mm512_add_ps(p2,p3)));
    } out[n]=_mm512_reduce_add_ps(acc);}
}
// variant 2: like v0 but no cvt (measure pmovzx+fma only; wrong result)
__attribute__((noinline)) void v2(const uint8_t*w,const float*x,float*out){
  for(int n=0;n<N;n++){ __m512 acc=_mm512_setzero_ps();
    for(int g=0;g<K/128;g++){ const uint8_t*wp=w+(size_t)n*K+g*128; const float*xp=x+g*128;
      __m512 p0=_mm512_setzero_ps(),p1=p0,p2=p0,p3=p0;
      for(int j=0;j<8;j+=4){
        p0=_mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j)))),_mm512_loadu_ps(xp+16*j),p0);
        p1=_mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+16)))),_mm512_loadu_ps(xp+16*j+16),p1);
        p2=_mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+32)))),_mm512_loadu_ps(xp+16*j+32),p2);
        p3=_mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+48)))),_mm512_loadu_ps(xp+16*j+48),p3);
      }
      acc=_mm512_add_ps(acc,_mm512_add_ps(_mm512_add_ps(p0,p1),_mm512_add_ps(p2,p3)));
    } out[n]=_mm512_reduce_add_ps(acc);}
}
// variant 3: cvt without pmovzx (load dwords, cvt, fma; wrong result)
__attribute__((noinline)) void v3(const uint8_t*w,const float*x,float*out){
  for(int n=0;n<N;n++){ __m512 acc=_mm512_setzero_ps();
    for(int g=0;g<K/128;g++){ const uint8_t*wp=w+(size_t)n*K+g*128; const float*xp=x+g*128;
      __m512 p0=_mm512_setzero_ps(),p1=p0,p2=p0,p3=p0;
      for(int c=0;c<2;c++){ __m512i v=_mm512_loadu_si512(wp+64*c);
        p0=_mm512_fmadd_ps(_mm512_cvtepi32_ps(v),_mm512_loadu_ps(xp+64*c),p0);
        p1=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(v,8)),_mm512_loadu_ps(xp+64*c+16),p1);
        p2=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(v,16)),_mm512_loadu_ps(xp+64*c+32),p2);
        p3=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(v,24)),_mm512_loadu_ps(xp+64*c+48),p3);
      }
      acc=_mm512_add_ps(acc,_mm512_add_ps(_mm512_add_ps(p0,p1),_mm512_add_ps(p2,p3)));
    } out[n]=_mm512_reduce_add_ps(acc);}
}
// variant 4: 4-bit weights, 32 nibbles per 16 bytes: and / shift, 2 cvt, 2 fma
__attribute__((noinline)) void v4(const uint8_t*w,const float*x,float*out){
  const __m512i m=_mm512_set1_epi32(0xF);
  for(int n=0;n<N;n++){ __m512 acc=_mm512_setzero_ps();
    for(int g=0;g<K/128;g++){ const uint8_t*wp=w+(size_t)n*K/2+g*64; const float*xp=x+g*128;
      __m512 p0=_mm512_setzero_ps(),p1=p0,p2=p0,p3=p0;
      for(int j=0;j<4;j+=2){
        __m512i a=_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j)));
        __m512i b=_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(wp+16*j+16)));
        p0=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_and_si512(a,m)),_mm512_loadu_ps(xp+32*j),p0);
        p1=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(a,4)),_mm512_loadu_ps(xp+32*j+16),p1);
        p2=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_and_si512(b,m)),_mm512_loadu_ps(xp+32*j+32),p2);
        p3=_mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(b,4)),_mm512_loadu_ps(xp+32*j+48),p3);
      }
      acc=_mm512_add_ps(acc,_mm512_add_ps(_mm512_add_ps(p0,p1),_mm512_add_ps(p2,p3)));
    } out[n]=_mm512_reduce_add_ps(acc);}
}
int main(){ uint8_t*w=aligned_alloc(64,N*K); float*x=aligned_alloc(64,K*4),out[N];
  for(int i=0;i<N*K;i++)w[i]=rand(); for(int i=0;i<K;i++)x[i]=rand()/(float)RAND_MAX;
  void(*f[])(const uint8_t*,const float*,float*)={v0,v1,v2,v3,v4};
  const char*nm[]={"v0 pmovzx+cvt+fma","v1 load+shift/and+cvt+fma","v2 pmovzx+fma (bound)","v3 shift+cvt+fma (bound)","v4 4-bit: pmovzx+and/shift+cvt+fma"};
  const double bytes[]={N*K,N*K,N*K,N*K,N*K/2};
  for(int r=0;r<2;r++) for(int v=0;v<5;v++){ double best=1e9; for(int t=0;t<200;t++){double t0=now(); f[v](w,x,out); double d=now()-t0; if(d<best)best=d;}
    printf("%-40s %.1f GB/s of weights, %.1f G weights/s\n",nm[v],bytes[v]/best/1e9,N*K/best/1e9);}
}
