//go:build !noasm

#include "textflag.h"

// Registers: SI the super-block's quants, DI its 256 floats, DX its 16
// scales and mins as float32, Y0 and Y1 the accumulators of even and odd
// sub-blocks, Y14 0x0F in every lane.

// Q4KSUB adds sub-block j's values, quants in Y2 to Y5 (float32, lanes
// l, l+8, l+16, l+24) and floats at xoff(DI), to acc: d*sc(j) at
// soff(DX) times the sum of q*x, less dmin*m(j) at (soff+32)(DX) times
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
	VBROADCASTSS (soff)(DX), Y12;            \
	VBROADCASTSS (soff+32)(DX), Y13;         \
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

// func dotQ4_KAVX2(q *byte, x *float32, s *[16]float32) float32
TEXT ·dotQ4_KAVX2(SB), NOSPLIT, $0-28
	MOVQ         q+0(FP), SI
	MOVQ         x+8(FP), DI
	MOVQ         s+16(FP), DX
	MOVL         $0x0F, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	VXORPS       Y0, Y0, Y0
	VXORPS       Y1, Y1, Y1
	Q4KPAIR(0, 0, 0)
	Q4KPAIR(32, 256, 8)
	Q4KPAIR(64, 512, 16)
	Q4KPAIR(96, 768, 24)
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
	VBROADCASTSS (soff)(DX), Z11;            \
	VBROADCASTSS (soff+32)(DX), Z12;         \
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

// func dotQ4_KAVX512(q *byte, x *float32, s *[16]float32) float32
TEXT ·dotQ4_KAVX512(SB), NOSPLIT, $0-28
	MOVQ          q+0(FP), SI
	MOVQ          x+8(FP), DI
	MOVQ          s+16(FP), DX
	VMOVUPS       nibbles4K<>(SB), Z13
	VPXORD        Z0, Z0, Z0
	VPXORD        Z1, Z1, Z1
	Q4KPAIR512(0, 0, 0)
	Q4KPAIR512(32, 256, 8)
	Q4KPAIR512(64, 512, 16)
	Q4KPAIR512(96, 768, 24)
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
