//go:build !noasm

#include "textflag.h"

// Registers of sgemmTileAVX2: SI the packed panel of A (6 floats a step
// of k), DI that of B (16 floats a step, of a row of 32: the panel's
// half), CX the steps left, DX the tile's row of C, R8 ldc in bytes;
// Y0-Y11 the accumulators, row i in Y(2i) (columns 0-7) and Y(2i+1)
// (8-15); Y12, Y13 B's row; Y14, Y15 A's broadcasts, alternating so that
// each broadcast's two multiply-adds need not wait on the next.

// STEP adds step s (from the panels' start) of the product.
#define STEP(s) \
	VMOVUPS      (s*128)(DI), Y12;     \
	VMOVUPS      (s*128+32)(DI), Y13;  \
	VBROADCASTSS (s*24)(SI), Y14;      \
	VFMADD231PS  Y12, Y14, Y0;         \
	VFMADD231PS  Y13, Y14, Y1;         \
	VBROADCASTSS (s*24+4)(SI), Y15;    \
	VFMADD231PS  Y12, Y15, Y2;         \
	VFMADD231PS  Y13, Y15, Y3;         \
	VBROADCASTSS (s*24+8)(SI), Y14;    \
	VFMADD231PS  Y12, Y14, Y4;         \
	VFMADD231PS  Y13, Y14, Y5;         \
	VBROADCASTSS (s*24+12)(SI), Y15;   \
	VFMADD231PS  Y12, Y15, Y6;         \
	VFMADD231PS  Y13, Y15, Y7;         \
	VBROADCASTSS (s*24+16)(SI), Y14;   \
	VFMADD231PS  Y12, Y14, Y8;         \
	VFMADD231PS  Y13, Y14, Y9;         \
	VBROADCASTSS (s*24+20)(SI), Y15;   \
	VFMADD231PS  Y12, Y15, Y10;        \
	VFMADD231PS  Y13, Y15, Y11

// ROWBETA writes row lo, hi of the tile as acc + beta*c (Y15 beta; the
// accumulators already times alpha) and moves DX to the next row.
#define ROWBETA(lo, hi) \
	VFMADD231PS (DX), Y15, lo;   \
	VFMADD231PS 32(DX), Y15, hi; \
	VMOVUPS     lo, (DX);        \
	VMOVUPS     hi, 32(DX);      \
	ADDQ        R8, DX

// ROW writes row lo, hi of the tile as acc, not reading c.
#define ROW(lo, hi) \
	VMOVUPS lo, (DX);    \
	VMOVUPS hi, 32(DX);  \
	ADDQ    R8, DX

// func sgemmTileAVX2(kc int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemmTileAVX2(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8

	// The tile's rows of C are wanted at the end: fetch them now.
	MOVQ        DX, AX
	PREFETCHT0  (AX)
	PREFETCHT0  60(AX)
	ADDQ        R8, AX
	PREFETCHT0  (AX)
	PREFETCHT0  60(AX)
	ADDQ        R8, AX
	PREFETCHT0  (AX)
	PREFETCHT0  60(AX)
	ADDQ        R8, AX
	PREFETCHT0  (AX)
	PREFETCHT0  60(AX)
	ADDQ        R8, AX
	PREFETCHT0  (AX)
	PREFETCHT0  60(AX)
	ADDQ        R8, AX
	PREFETCHT0  (AX)
	PREFETCHT0  60(AX)

	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11

	CMPQ CX, $4
	JLT  tail

loop4:
	PREFETCHT0 1024(DI)
	STEP(0)
	STEP(1)
	PREFETCHT0 1280(DI)
	STEP(2)
	STEP(3)
	ADDQ $96, SI
	ADDQ $512, DI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  loop4

tail:
	TESTQ CX, CX
	JEQ   store

tail1:
	STEP(0)
	ADDQ $24, SI
	ADDQ $128, DI
	DECQ CX
	JNE  tail1

store:
	VBROADCASTSS alpha+40(FP), Y14
	VMULPS       Y14, Y0, Y0
	VMULPS       Y14, Y1, Y1
	VMULPS       Y14, Y2, Y2
	VMULPS       Y14, Y3, Y3
	VMULPS       Y14, Y4, Y4
	VMULPS       Y14, Y5, Y5
	VMULPS       Y14, Y6, Y6
	VMULPS       Y14, Y7, Y7
	VMULPS       Y14, Y8, Y8
	VMULPS       Y14, Y9, Y9
	VMULPS       Y14, Y10, Y10
	VMULPS       Y14, Y11, Y11

	// beta of 0 (either sign) must not read c.
	MOVL beta+44(FP), AX
	ANDL $0x7fffffff, AX
	JEQ  nobeta

	VBROADCASTSS beta+44(FP), Y15
	ROWBETA(Y0, Y1)
	ROWBETA(Y2, Y3)
	ROWBETA(Y4, Y5)
	ROWBETA(Y6, Y7)
	ROWBETA(Y8, Y9)
	ROWBETA(Y10, Y11)
	VZEROUPPER
	RET

nobeta:
	ROW(Y0, Y1)
	ROW(Y2, Y3)
	ROW(Y4, Y5)
	ROW(Y6, Y7)
	ROW(Y8, Y9)
	ROW(Y10, Y11)
	VZEROUPPER
	RET

// Registers of sgemmTileAVX512: as sgemmTileAVX2's, but B's row is 32
// floats, all of the panel's, in Z12 and Z13, and the accumulators are
// Z0-Z11, row i in Z(2i) (columns 0-15) and Z(2i+1) (16-31).

// STEP512 adds step s (from the panels' start) of the product.
#define STEP512(s) \
	VMOVUPS      (s*128)(DI), Z12;     \
	VMOVUPS      (s*128+64)(DI), Z13;  \
	VBROADCASTSS (s*24)(SI), Z14;      \
	VFMADD231PS  Z12, Z14, Z0;         \
	VFMADD231PS  Z13, Z14, Z1;         \
	VBROADCASTSS (s*24+4)(SI), Z15;    \
	VFMADD231PS  Z12, Z15, Z2;         \
	VFMADD231PS  Z13, Z15, Z3;         \
	VBROADCASTSS (s*24+8)(SI), Z14;    \
	VFMADD231PS  Z12, Z14, Z4;         \
	VFMADD231PS  Z13, Z14, Z5;         \
	VBROADCASTSS (s*24+12)(SI), Z15;   \
	VFMADD231PS  Z12, Z15, Z6;         \
	VFMADD231PS  Z13, Z15, Z7;         \
	VBROADCASTSS (s*24+16)(SI), Z14;   \
	VFMADD231PS  Z12, Z14, Z8;         \
	VFMADD231PS  Z13, Z14, Z9;         \
	VBROADCASTSS (s*24+20)(SI), Z15;   \
	VFMADD231PS  Z12, Z15, Z10;        \
	VFMADD231PS  Z13, Z15, Z11

// ROWBETA512 writes row lo, hi as acc + beta*c (Z15 beta) and moves DX
// to the next row.
#define ROWBETA512(lo, hi) \
	VFMADD231PS (DX), Z15, lo;   \
	VFMADD231PS 64(DX), Z15, hi; \
	VMOVUPS     lo, (DX);        \
	VMOVUPS     hi, 64(DX);      \
	ADDQ        R8, DX

// ROW512 writes row lo, hi as acc, not reading c.
#define ROW512(lo, hi) \
	VMOVUPS lo, (DX);    \
	VMOVUPS hi, 64(DX);  \
	ADDQ    R8, DX

// PREFETCHROW fetches the 128 bytes of a row of the tile at AX.
#define PREFETCHROW \
	PREFETCHT0 (AX);    \
	PREFETCHT0 64(AX);  \
	PREFETCHT0 124(AX)

// func sgemmTileAVX512(kc int, a, b, c *float32, ldc int, alpha, beta float32)
TEXT ·sgemmTileAVX512(SB), NOSPLIT, $0-48
	MOVQ kc+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ c+24(FP), DX
	MOVQ ldc+32(FP), R8
	SHLQ $2, R8

	// The tile's rows of C are wanted at the end: fetch them now.
	MOVQ DX, AX
	PREFETCHROW
	ADDQ R8, AX
	PREFETCHROW
	ADDQ R8, AX
	PREFETCHROW
	ADDQ R8, AX
	PREFETCHROW
	ADDQ R8, AX
	PREFETCHROW
	ADDQ R8, AX
	PREFETCHROW

	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11

	CMPQ CX, $4
	JLT  tail512

loop512:
	PREFETCHT0 1024(DI)
	PREFETCHT0 1088(DI)
	STEP512(0)
	STEP512(1)
	PREFETCHT0 1280(DI)
	PREFETCHT0 1344(DI)
	STEP512(2)
	STEP512(3)
	ADDQ $96, SI
	ADDQ $512, DI
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  loop512

tail512:
	TESTQ CX, CX
	JEQ   store512

tail512x1:
	STEP512(0)
	ADDQ $24, SI
	ADDQ $128, DI
	DECQ CX
	JNE  tail512x1

store512:
	VBROADCASTSS alpha+40(FP), Z14
	VMULPS       Z14, Z0, Z0
	VMULPS       Z14, Z1, Z1
	VMULPS       Z14, Z2, Z2
	VMULPS       Z14, Z3, Z3
	VMULPS       Z14, Z4, Z4
	VMULPS       Z14, Z5, Z5
	VMULPS       Z14, Z6, Z6
	VMULPS       Z14, Z7, Z7
	VMULPS       Z14, Z8, Z8
	VMULPS       Z14, Z9, Z9
	VMULPS       Z14, Z10, Z10
	VMULPS       Z14, Z11, Z11

	// beta of 0 (either sign) must not read c.
	MOVL beta+44(FP), AX
	ANDL $0x7fffffff, AX
	JEQ  nobeta512

	VBROADCASTSS beta+44(FP), Z15
	ROWBETA512(Z0, Z1)
	ROWBETA512(Z2, Z3)
	ROWBETA512(Z4, Z5)
	ROWBETA512(Z6, Z7)
	ROWBETA512(Z8, Z9)
	ROWBETA512(Z10, Z11)
	VZEROUPPER
	RET

nobeta512:
	ROW512(Z0, Z1)
	ROW512(Z2, Z3)
	ROW512(Z4, Z5)
	ROW512(Z6, Z7)
	ROW512(Z8, Z9)
	ROW512(Z10, Z11)
	VZEROUPPER
	RET
