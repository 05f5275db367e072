//go:build !noasm

#include "textflag.h"

// Registers of every routine: SI the block, DI its 32 floats, CX the
// blocks left, X8/Y8/Z8 the block's scale, Y0/Z0 and Y1/Z1 the
// accumulators of even and odd blocks, Y2-Y5/Z2-Z3 the block's values;
// Y14, Y15 and Z13 the Q4_0 constants. The frame's 32 bytes at 0(SP)
// hold the scales of 8 blocks as float32.

// SCALE broadcasts the f16 scale at boff(SI) as float32 to V8.
#define SCALE(boff, V8) \
	MOVWLZX      boff(SI), AX; \
	VMOVD        AX, X8;       \
	VCVTPH2PS    X8, X8;       \
	VBROADCASTSS X8, V8

// SCALES8 converts the f16 scales of the 8 blocks stride bytes apart
// from 0(SI) to float32 at 0(SP) to 28(SP): one conversion for 8 blocks,
// after which each block's broadcast is a load.
#define SCALES8(stride) \
	MOVWLZX   0(SI), AX;                      \
	VMOVD     AX, X8;                         \
	VPINSRW   $1, (1*stride)(SI), X8, X8;     \
	VPINSRW   $2, (2*stride)(SI), X8, X8;     \
	VPINSRW   $3, (3*stride)(SI), X8, X8;     \
	VPINSRW   $4, (4*stride)(SI), X8, X8;     \
	VPINSRW   $5, (5*stride)(SI), X8, X8;     \
	VPINSRW   $6, (6*stride)(SI), X8, X8;     \
	VPINSRW   $7, (7*stride)(SI), X8, X8;     \
	VCVTPH2PS X8, Y8;                         \
	VMOVUPS   Y8, 0(SP)

// Q8AVX2 adds the Q8_0 block at boff(SI) times the floats at xoff(DI),
// times the scale in Y8, to acc.
#define Q8AVX2(boff, xoff, acc) \
	VPMOVSXBD   (boff+2)(SI), Y2;         \
	VPMOVSXBD   (boff+10)(SI), Y3;        \
	VPMOVSXBD   (boff+18)(SI), Y4;        \
	VPMOVSXBD   (boff+26)(SI), Y5;        \
	VCVTDQ2PS   Y2, Y2;                   \
	VCVTDQ2PS   Y3, Y3;                   \
	VCVTDQ2PS   Y4, Y4;                   \
	VCVTDQ2PS   Y5, Y5;                   \
	VMULPS      (xoff)(DI), Y2, Y2;       \
	VMULPS      (xoff+64)(DI), Y4, Y4;    \
	VFMADD231PS (xoff+32)(DI), Y3, Y2;    \
	VFMADD231PS (xoff+96)(DI), Y5, Y4;    \
	VADDPS      Y4, Y2, Y2;               \
	VFMADD231PS Y8, Y2, acc

// Q4AVX2 is Q8AVX2 for the Q4_0 block at boff(SI); Y14 holds 0x0F and
// Y15 holds 8 in every lane.
#define Q4AVX2(boff, xoff, acc) \
	VPMOVZXBD   (boff+2)(SI), Y2;         \
	VPMOVZXBD   (boff+10)(SI), Y3;        \
	VPSRLD      $4, Y2, Y4;               \
	VPSRLD      $4, Y3, Y5;               \
	VPAND       Y14, Y2, Y2;              \
	VPAND       Y14, Y3, Y3;              \
	VPSUBD      Y15, Y2, Y2;              \
	VPSUBD      Y15, Y3, Y3;              \
	VPSUBD      Y15, Y4, Y4;              \
	VPSUBD      Y15, Y5, Y5;              \
	VCVTDQ2PS   Y2, Y2;                   \
	VCVTDQ2PS   Y3, Y3;                   \
	VCVTDQ2PS   Y4, Y4;                   \
	VCVTDQ2PS   Y5, Y5;                   \
	VMULPS      (xoff)(DI), Y2, Y2;       \
	VMULPS      (xoff+64)(DI), Y4, Y4;    \
	VFMADD231PS (xoff+32)(DI), Y3, Y2;    \
	VFMADD231PS (xoff+96)(DI), Y5, Y4;    \
	VADDPS      Y4, Y2, Y2;               \
	VFMADD231PS Y8, Y2, acc

// Q8AVX512 adds the Q8_0 block at boff(SI) times the floats at
// xoff(DI), times the scale in Z8, to acc, 16 lanes.
#define Q8AVX512(boff, xoff, acc) \
	VPMOVSXBD   (boff+2)(SI), Z2;         \
	VPMOVSXBD   (boff+18)(SI), Z3;        \
	VCVTDQ2PS   Z2, Z2;                   \
	VCVTDQ2PS   Z3, Z3;                   \
	VMULPS      (xoff)(DI), Z2, Z2;       \
	VFMADD231PS (xoff+64)(DI), Z3, Z2;    \
	VFMADD231PS Z8, Z2, acc

// Q4AVX512 is Q8AVX512 for the Q4_0 block at boff(SI): Z13 holds the
// values -8 to 7 of the 16 nibbles as float32, and VPERMPS, which reads
// the low 4 bits of each index, looks a nibble's value up there, so
// that neither a mask, nor a subtraction, nor a conversion is needed.
#define Q4AVX512(boff, xoff, acc) \
	VPMOVZXBD   (boff+2)(SI), Z2;         \
	VPSRLD      $4, Z2, Z3;               \
	VPERMPS     Z13, Z2, Z2;              \
	VPERMPS     Z13, Z3, Z3;              \
	VMULPS      (xoff)(DI), Z2, Z2;       \
	VFMADD231PS (xoff+64)(DI), Z3, Z2;    \
	VFMADD231PS Z8, Z2, acc

// nibbles are the values -8 to 7 of a Q4_0 nibble 0 to 15, as float32.
DATA nibbles<>+0(SB)/4, $0xc1000000
DATA nibbles<>+4(SB)/4, $0xc0e00000
DATA nibbles<>+8(SB)/4, $0xc0c00000
DATA nibbles<>+12(SB)/4, $0xc0a00000
DATA nibbles<>+16(SB)/4, $0xc0800000
DATA nibbles<>+20(SB)/4, $0xc0400000
DATA nibbles<>+24(SB)/4, $0xc0000000
DATA nibbles<>+28(SB)/4, $0xbf800000
DATA nibbles<>+32(SB)/4, $0x00000000
DATA nibbles<>+36(SB)/4, $0x3f800000
DATA nibbles<>+40(SB)/4, $0x40000000
DATA nibbles<>+44(SB)/4, $0x40400000
DATA nibbles<>+48(SB)/4, $0x40800000
DATA nibbles<>+52(SB)/4, $0x40a00000
DATA nibbles<>+56(SB)/4, $0x40c00000
DATA nibbles<>+60(SB)/4, $0x40e00000
GLOBL nibbles<>(SB), RODATA|NOPTR, $64

// HSUM8 adds the 8 lanes of Y0 into X0's lowest.
#define HSUM8 \
	VEXTRACTF128 $1, Y0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVHLPS     X0, X0, X1; \
	VADDPS       X1, X0, X0; \
	VMOVSHDUP    X0, X1;     \
	VADDSS       X1, X0, X0

// func dotQ8_0AVX2(b *byte, x *float32, n int) float32
TEXT ·dotQ8_0AVX2(SB), NOSPLIT, $32-28
	MOVQ   b+0(FP), SI
	MOVQ   x+8(FP), DI
	MOVQ   n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	CMPQ CX, $8
	JB   q8pairs

q8oct:
	SCALES8(34)
	VBROADCASTSS 0(SP), Y8
	Q8AVX2(0, 0, Y0)
	VBROADCASTSS 4(SP), Y8
	Q8AVX2(34, 128, Y1)
	VBROADCASTSS 8(SP), Y8
	Q8AVX2(68, 256, Y0)
	VBROADCASTSS 12(SP), Y8
	Q8AVX2(102, 384, Y1)
	VBROADCASTSS 16(SP), Y8
	Q8AVX2(136, 512, Y0)
	VBROADCASTSS 20(SP), Y8
	Q8AVX2(170, 640, Y1)
	VBROADCASTSS 24(SP), Y8
	Q8AVX2(204, 768, Y0)
	VBROADCASTSS 28(SP), Y8
	Q8AVX2(238, 896, Y1)
	ADDQ $272, SI
	ADDQ $1024, DI
	SUBQ $8, CX
	CMPQ CX, $8
	JAE  q8oct

q8pairs:
	CMPQ   CX, $2
	JB     q8tail

q8pair:
	SCALE(0, Y8)
	Q8AVX2(0, 0, Y0)
	SCALE(34, Y8)
	Q8AVX2(34, 128, Y1)
	ADDQ $68, SI
	ADDQ $256, DI
	SUBQ $2, CX
	CMPQ CX, $2
	JAE  q8pair

q8tail:
	TESTQ CX, CX
	JZ    q8done
	SCALE(0, Y8)
	Q8AVX2(0, 0, Y0)

q8done:
	VADDPS Y1, Y0, Y0
	HSUM8
	VZEROUPPER
	MOVSS  X0, ret+24(FP)
	RET

// func dotQ4_0AVX2(b *byte, x *float32, n int) float32
TEXT ·dotQ4_0AVX2(SB), NOSPLIT, $32-28
	MOVQ         b+0(FP), SI
	MOVQ         x+8(FP), DI
	MOVQ         n+16(FP), CX
	MOVL         $0x0F, AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	MOVL         $8, AX
	VMOVD        AX, X15
	VPBROADCASTD X15, Y15
	VXORPS       Y0, Y0, Y0
	VXORPS       Y1, Y1, Y1
	CMPQ CX, $8
	JB   q4pairs

q4oct:
	SCALES8(18)
	VBROADCASTSS 0(SP), Y8
	Q4AVX2(0, 0, Y0)
	VBROADCASTSS 4(SP), Y8
	Q4AVX2(18, 128, Y1)
	VBROADCASTSS 8(SP), Y8
	Q4AVX2(36, 256, Y0)
	VBROADCASTSS 12(SP), Y8
	Q4AVX2(54, 384, Y1)
	VBROADCASTSS 16(SP), Y8
	Q4AVX2(72, 512, Y0)
	VBROADCASTSS 20(SP), Y8
	Q4AVX2(90, 640, Y1)
	VBROADCASTSS 24(SP), Y8
	Q4AVX2(108, 768, Y0)
	VBROADCASTSS 28(SP), Y8
	Q4AVX2(126, 896, Y1)
	ADDQ $144, SI
	ADDQ $1024, DI
	SUBQ $8, CX
	CMPQ CX, $8
	JAE  q4oct

q4pairs:
	CMPQ         CX, $2
	JB           q4tail

q4pair:
	SCALE(0, Y8)
	Q4AVX2(0, 0, Y0)
	SCALE(18, Y8)
	Q4AVX2(18, 128, Y1)
	ADDQ $36, SI
	ADDQ $256, DI
	SUBQ $2, CX
	CMPQ CX, $2
	JAE  q4pair

q4tail:
	TESTQ CX, CX
	JZ    q4done
	SCALE(0, Y8)
	Q4AVX2(0, 0, Y0)

q4done:
	VADDPS Y1, Y0, Y0
	HSUM8
	VZEROUPPER
	MOVSS  X0, ret+24(FP)
	RET

// func dotQ8_0AVX512(b *byte, x *float32, n int) float32
TEXT ·dotQ8_0AVX512(SB), NOSPLIT, $32-28
	MOVQ   b+0(FP), SI
	MOVQ   x+8(FP), DI
	MOVQ   n+16(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	CMPQ CX, $8
	JB   z8pairs

z8oct:
	SCALES8(34)
	VBROADCASTSS 0(SP), Z8
	Q8AVX512(0, 0, Z0)
	VBROADCASTSS 4(SP), Z8
	Q8AVX512(34, 128, Z1)
	VBROADCASTSS 8(SP), Z8
	Q8AVX512(68, 256, Z0)
	VBROADCASTSS 12(SP), Z8
	Q8AVX512(102, 384, Z1)
	VBROADCASTSS 16(SP), Z8
	Q8AVX512(136, 512, Z0)
	VBROADCASTSS 20(SP), Z8
	Q8AVX512(170, 640, Z1)
	VBROADCASTSS 24(SP), Z8
	Q8AVX512(204, 768, Z0)
	VBROADCASTSS 28(SP), Z8
	Q8AVX512(238, 896, Z1)
	ADDQ $272, SI
	ADDQ $1024, DI
	SUBQ $8, CX
	CMPQ CX, $8
	JAE  z8oct

z8pairs:
	CMPQ   CX, $2
	JB     z8tail

z8pair:
	SCALE(0, Z8)
	Q8AVX512(0, 0, Z0)
	SCALE(34, Z8)
	Q8AVX512(34, 128, Z1)
	ADDQ $68, SI
	ADDQ $256, DI
	SUBQ $2, CX
	CMPQ CX, $2
	JAE  z8pair

z8tail:
	TESTQ CX, CX
	JZ    z8done
	SCALE(0, Z8)
	Q8AVX512(0, 0, Z0)

z8done:
	VADDPS        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	HSUM8
	VZEROUPPER
	MOVSS         X0, ret+24(FP)
	RET

// func dotQ4_0AVX512(b *byte, x *float32, n int) float32
TEXT ·dotQ4_0AVX512(SB), NOSPLIT, $32-28
	MOVQ         b+0(FP), SI
	MOVQ         x+8(FP), DI
	MOVQ         n+16(FP), CX
	VMOVUPS      nibbles<>(SB), Z13
	VPXORD       Z0, Z0, Z0
	VPXORD       Z1, Z1, Z1
	CMPQ CX, $8
	JB   z4pairs

z4oct:
	SCALES8(18)
	VBROADCASTSS 0(SP), Z8
	Q4AVX512(0, 0, Z0)
	VBROADCASTSS 4(SP), Z8
	Q4AVX512(18, 128, Z1)
	VBROADCASTSS 8(SP), Z8
	Q4AVX512(36, 256, Z0)
	VBROADCASTSS 12(SP), Z8
	Q4AVX512(54, 384, Z1)
	VBROADCASTSS 16(SP), Z8
	Q4AVX512(72, 512, Z0)
	VBROADCASTSS 20(SP), Z8
	Q4AVX512(90, 640, Z1)
	VBROADCASTSS 24(SP), Z8
	Q4AVX512(108, 768, Z0)
	VBROADCASTSS 28(SP), Z8
	Q4AVX512(126, 896, Z1)
	ADDQ $144, SI
	ADDQ $1024, DI
	SUBQ $8, CX
	CMPQ CX, $8
	JAE  z4oct

z4pairs:
	CMPQ         CX, $2
	JB           z4tail

z4pair:
	SCALE(0, Z8)
	Q4AVX512(0, 0, Z0)
	SCALE(18, Z8)
	Q4AVX512(18, 128, Z1)
	ADDQ $36, SI
	ADDQ $256, DI
	SUBQ $2, CX
	CMPQ CX, $2
	JAE  z4pair

z4tail:
	TESTQ CX, CX
	JZ    z4done
	SCALE(0, Z8)
	Q4AVX512(0, 0, Z0)

z4done:
	VADDPS        Z1, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	HSUM8
	VZEROUPPER
	MOVSS         X0, ret+24(FP)
	RET
