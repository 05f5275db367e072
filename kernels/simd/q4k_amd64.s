//go:build !noasm

#include "textflag.h"

// Registers: SI the super-block, DI its 256 floats, CX the super-blocks
// left, Y0/Z0 and Y1/Z1 the accumulators of even and odd sub-blocks,
// Y14 0x0F in every lane, Z13 the values 0 to 15. The frame's 64 bytes
// at 0(SP) hold the super-block's d*sc(j) at 4j and dmin*m(j) at 32+4j.

// Q4KSCALES unpacks the scales and mins of the super-block at SI to the
// frame as ggml's AVX2 code does: the 12 bytes as three words u0, u1,
// u2 turn into the 8 scales' bytes u0&0x3f.. and
// (u2&0x0f..)|((u0>>6)&0x03..)<<4, and the 8 mins' u1&0x3f.. and
// ((u2>>4)&0x0f..)|((u1>>6)&0x03..)<<4, which are widened, converted and
// multiplied by d and dmin (products exact: 11 bits times 6); it uses
// AX, BX, DX, R8-R10 and Y10-Y12, Y15, leaving Y13/Z13 and Y14.
#define Q4KSCALES \
	MOVL         4(SI), AX;              \
	MOVL         8(SI), BX;              \
	MOVL         12(SI), DX;             \
	MOVL         DX, R8;                 \
	SHRL         $4, R8;                 \
	ANDL         $0x0f0f0f0f, R8;        \
	MOVL         BX, R9;                 \
	SHRL         $6, R9;                 \
	ANDL         $0x03030303, R9;        \
	SHLL         $4, R9;                 \
	ORL          R9, R8;                 \
	MOVL         BX, R10;                \
	ANDL         $0x3f3f3f3f, R10;       \
	ANDL         $0x0f0f0f0f, DX;        \
	MOVL         AX, R9;                 \
	SHRL         $6, R9;                 \
	ANDL         $0x03030303, R9;        \
	SHLL         $4, R9;                 \
	ORL          R9, DX;                 \
	ANDL         $0x3f3f3f3f, AX;        \
	VMOVD        AX, X10;                \
	VPINSRD      $1, DX, X10, X10;       \
	VMOVD        R10, X11;               \
	VPINSRD      $1, R8, X11, X11;       \
	VPMOVZXBD    X10, Y10;               \
	VPMOVZXBD    X11, Y11;               \
	VCVTDQ2PS    Y10, Y10;               \
	VCVTDQ2PS    Y11, Y11;               \
	MOVWLZX      0(SI), AX;              \
	VMOVD        AX, X12;                \
	VCVTPH2PS    X12, X12;               \
	VBROADCASTSS X12, Y12;               \
	MOVWLZX      2(SI), AX;              \
	VMOVD        AX, X15;                \
	VCVTPH2PS    X15, X15;               \
	VBROADCASTSS X15, Y15;               \
	VMULPS       Y12, Y10, Y10;          \
	VMULPS       Y15, Y11, Y11;          \
	VMOVUPS      Y10, 0(SP);             \
	VMOVUPS      Y11, 32(SP)

// Q4KSUB adds sub-block j's values, quants in Y2 to Y5 (float32, lanes
// l, l+8, l+16, l+24) and floats at xoff(DI), to acc: d*sc(j) at
// soff(DX) times the sum of q*x, less dmin*m(j) at (soff+32)(SP) times
// the sum of x.
#define Q4KSUB(xoff, soff, acc, Q0, Q1, Q2, Q3) \
	VMULPS       (xoff)(DI), Q0, Q0;         \
	VMULPS       (xoff+64)(DI), Q2, Q2;      \
	VFMADD231PS  (xoff+32)(DI), Q1, Q0;      \
	VFMADD231PS  (xoff+96)(DI), Q3, Q2;      \
	VADDPS       Q2, Q0, Q0;                 \
	VMOVUPS      (xoff)(DI), Y10;            \
	VMOVUPS      (xoff+64)(DI), Y11;         \
	VADDPS       (xoff+32)(DI), Y10, Y10;    \
	VADDPS       (xoff+96)(DI), Y11, Y11;    \
	VADDPS       Y11, Y10, Y10;              \
	VBROADCASTSS (soff)(SP), Y12;            \
	VBROADCASTSS (soff+32)(SP), Y13;         \
	VFMADD231PS  Y12, Q0, acc;               \
	VFNMADD231PS Y13, Y10, acc

// Q4KPAIR adds sub-blocks 2p and 2p+1, whose quants are the low and high
// nibbles of the 32 bytes at qoff(SI) and whose floats start at
// xoff(DI), to Y0 and Y1; soff is 8p, the offset of 2p's scale.
#define Q4KPAIR(qoff, xoff, soff) \
	VPMOVZXBD (qoff)(SI), Y2;                      \
	VPMOVZXBD (qoff+8)(SI), Y3;                    \
	VPMOVZXBD (qoff+16)(SI), Y4;                   \
	VPMOVZXBD (qoff+24)(SI), Y5;                   \
	VPSRLD    $4, Y2, Y6;                          \
	VPSRLD    $4, Y3, Y7;                          \
	VPSRLD    $4, Y4, Y8;                          \
	VPSRLD    $4, Y5, Y9;                          \
	VPAND     Y14, Y2, Y2;                         \
	VPAND     Y14, Y3, Y3;                         \
	VPAND     Y14, Y4, Y4;                         \
	VPAND     Y14, Y5, Y5;                         \
	VCVTDQ2PS Y2, Y2;                              \
	VCVTDQ2PS Y3, Y3;                              \
	VCVTDQ2PS Y4, Y4;                              \
	VCVTDQ2PS Y5, Y5;                              \
	VCVTDQ2PS Y6, Y6;                              \
	VCVTDQ2PS Y7, Y7;                              \
	VCVTDQ2PS Y8, Y8;                              \
	VCVTDQ2PS Y9, Y9;                              \
	Q4KSUB(xoff, soff, Y0, Y2, Y3, Y4, Y5);        \
	Q4KSUB(xoff+128, soff+4, Y1, Y6, Y7, Y8, Y9)

// func dotQ4_KAVX2(b *byte, x *float32, n int) float32
TEXT ·dotQ4_KAVX2(SB), NOSPLIT, $64-28
	MOVQ         b+0(FP), SI
	MOVQ         x+8(FP), DI
	MOVQ         n+16(FP), CX
	MOVL         $0x0F, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	VXORPS       Y0, Y0, Y0
	VXORPS       Y1, Y1, Y1

q4ksuper:
	Q4KSCALES
	Q4KPAIR(16, 0, 0)
	Q4KPAIR(48, 256, 8)
	Q4KPAIR(80, 512, 16)
	Q4KPAIR(112, 768, 24)
	ADDQ         $144, SI
	ADDQ         $1024, DI
	DECQ         CX
	JNZ          q4ksuper
	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+24(FP)
	RET

// Q4KSUB512 is Q4KSUB with 16 lanes: quants of values l and l+16 in Q0
// and Q1, the sums in Z10, the scale and min broadcast to Z11 and Z12.
#define Q4KSUB512(xoff, soff, acc, Q0, Q1) \
	VMULPS       (xoff)(DI), Q0, Q0;         \
	VFMADD231PS  (xoff+64)(DI), Q1, Q0;      \
	VMOVUPS      (xoff)(DI), Z10;            \
	VADDPS       (xoff+64)(DI), Z10, Z10;    \
	VBROADCASTSS (soff)(SP), Z11;            \
	VBROADCASTSS (soff+32)(SP), Z12;         \
	VFMADD231PS  Z11, Q0, acc;               \
	VFNMADD231PS Z12, Z10, acc

// Q4KPAIR512 is Q4KPAIR with 16 lanes: Z13 holds 0 to 15 as float32,
// and VPERMPS, which reads the low 4 bits of each index, looks a low
// nibble's value up there unmasked, a high nibble's after a shift.
#define Q4KPAIR512(qoff, xoff, soff) \
	VPMOVZXBD (qoff)(SI), Z2;                  \
	VPMOVZXBD (qoff+16)(SI), Z3;               \
	VPSRLD    $4, Z2, Z4;                      \
	VPSRLD    $4, Z3, Z5;                      \
	VPERMPS   Z13, Z2, Z2;                     \
	VPERMPS   Z13, Z3, Z3;                     \
	VPERMPS   Z13, Z4, Z4;                     \
	VPERMPS   Z13, Z5, Z5;                     \
	Q4KSUB512(xoff, soff, Z0, Z2, Z3);         \
	Q4KSUB512(xoff+128, soff+4, Z1, Z4, Z5)

// nibbles4K are the values 0 to 15 of a Q4_K nibble, as float32.
DATA nibbles4K<>+0(SB)/4, $0x00000000
DATA nibbles4K<>+4(SB)/4, $0x3f800000
DATA nibbles4K<>+8(SB)/4, $0x40000000
DATA nibbles4K<>+12(SB)/4, $0x40400000
DATA nibbles4K<>+16(SB)/4, $0x40800000
DATA nibbles4K<>+20(SB)/4, $0x40a00000
DATA nibbles4K<>+24(SB)/4, $0x40c00000
DATA nibbles4K<>+28(SB)/4, $0x40e00000
DATA nibbles4K<>+32(SB)/4, $0x41000000
DATA nibbles4K<>+36(SB)/4, $0x41100000
DATA nibbles4K<>+40(SB)/4, $0x41200000
DATA nibbles4K<>+44(SB)/4, $0x41300000
DATA nibbles4K<>+48(SB)/4, $0x41400000
DATA nibbles4K<>+52(SB)/4, $0x41500000
DATA nibbles4K<>+56(SB)/4, $0x41600000
DATA nibbles4K<>+60(SB)/4, $0x41700000
GLOBL nibbles4K<>(SB), RODATA|NOPTR, $64

// func dotQ4_KAVX512(b *byte, x *float32, n int) float32
TEXT ·dotQ4_KAVX512(SB), NOSPLIT, $64-28
	MOVQ          b+0(FP), SI
	MOVQ          x+8(FP), DI
	MOVQ          n+16(FP), CX
	VMOVUPS       nibbles4K<>(SB), Z13
	VPXORD        Z0, Z0, Z0
	VPXORD        Z1, Z1, Z1

z4ksuper:
	Q4KSCALES
	Q4KPAIR512(16, 0, 0)
	Q4KPAIR512(48, 256, 8)
	Q4KPAIR512(80, 512, 16)
	Q4KPAIR512(112, 768, 24)
	ADDQ          $144, SI
	ADDQ          $1024, DI
	DECQ          CX
	JNZ           z4ksuper
	VADDPS        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS        X1, X0, X0
	VMOVHLPS      X0, X0, X1
	VADDPS        X1, X0, X0
	VMOVSHDUP     X0, X1
	VADDSS        X1, X0, X0
	VZEROUPPER
	MOVSS         X0, ret+24(FP)
	RET
