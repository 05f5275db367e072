//go:build !noasm

#include "textflag.h"

// func dotStrip4x8(acc unsafe.Pointer, accRow int, a unsafe.Pointer, aRow, aK int, b unsafe.Pointer, bRow, bK, k int)
TEXT ·dotStrip4x8(SB), NOSPLIT, $0-72
	MOVQ acc+0(FP), AX
	MOVQ accRow+8(FP), DX
	MOVQ a+16(FP), SI
	MOVQ aRow+24(FP), R8
	MOVQ aK+32(FP), R12
	MOVQ b+40(FP), DI
	MOVQ bRow+48(FP), R10
	MOVQ bK+56(FP), R13
	MOVQ k+64(FP), CX
	LEAQ (DX)(DX*2), BX  // 3*accRow
	LEAQ (R8)(R8*2), R9  // 3*aRow
	LEAQ (R10)(R10*2), R11 // 3*bRow

	VMOVUPS (AX), Y0
	VMOVUPS (AX)(DX*1), Y1
	VMOVUPS (AX)(DX*2), Y2
	VMOVUPS (AX)(BX*1), Y3

loop:
	VBROADCASTSS (SI), Y4
	VBROADCASTSS (SI)(R8*1), Y5
	VBROADCASTSS (SI)(R8*2), Y6
	VBROADCASTSS (SI)(R9*1), Y7
	VMULPS (DI), Y4, Y4
	VMULPS (DI)(R10*1), Y5, Y5
	VMULPS (DI)(R10*2), Y6, Y6
	VMULPS (DI)(R11*1), Y7, Y7
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	ADDQ R12, SI
	ADDQ R13, DI
	DECQ CX
	JNZ  loop

	VMOVUPS Y0, (AX)
	VMOVUPS Y1, (AX)(DX*1)
	VMOVUPS Y2, (AX)(DX*2)
	VMOVUPS Y3, (AX)(BX*1)
	VZEROUPPER
	RET

// func dotStrip4x16(acc unsafe.Pointer, accStep int, a unsafe.Pointer, aStep, aK int, b unsafe.Pointer, bK, k int)
TEXT ·dotStrip4x16(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), AX
	MOVQ accStep+8(FP), DX
	MOVQ a+16(FP), SI
	MOVQ aStep+24(FP), R8
	MOVQ aK+32(FP), R12
	MOVQ b+40(FP), DI
	MOVQ bK+48(FP), R13
	MOVQ k+56(FP), CX
	LEAQ (DX)(DX*2), BX // 3*accStep
	LEAQ (R8)(R8*2), R9 // 3*aStep

	VMOVUPS (AX), Y0
	VMOVUPS 32(AX), Y1
	VMOVUPS (AX)(DX*1), Y2
	VMOVUPS 32(AX)(DX*1), Y3
	VMOVUPS (AX)(DX*2), Y4
	VMOVUPS 32(AX)(DX*2), Y5
	VMOVUPS (AX)(BX*1), Y6
	VMOVUPS 32(AX)(BX*1), Y7

loop16:
	VMOVUPS      (DI), Y8
	VMOVUPS      32(DI), Y9
	VBROADCASTSS (SI), Y10
	VBROADCASTSS (SI)(R8*1), Y15
	VMULPS       Y8, Y10, Y11
	VMULPS       Y9, Y10, Y12
	VMULPS       Y8, Y15, Y13
	VMULPS       Y9, Y15, Y14
	VADDPS       Y11, Y0, Y0
	VADDPS       Y12, Y1, Y1
	VADDPS       Y13, Y2, Y2
	VADDPS       Y14, Y3, Y3
	VBROADCASTSS (SI)(R8*2), Y10
	VBROADCASTSS (SI)(R9*1), Y15
	VMULPS       Y8, Y10, Y11
	VMULPS       Y9, Y10, Y12
	VMULPS       Y8, Y15, Y13
	VMULPS       Y9, Y15, Y14
	VADDPS       Y11, Y4, Y4
	VADDPS       Y12, Y5, Y5
	VADDPS       Y13, Y6, Y6
	VADDPS       Y14, Y7, Y7
	ADDQ         R12, SI
	ADDQ         R13, DI
	DECQ         CX
	JNZ          loop16

	VMOVUPS Y0, (AX)
	VMOVUPS Y1, 32(AX)
	VMOVUPS Y2, (AX)(DX*1)
	VMOVUPS Y3, 32(AX)(DX*1)
	VMOVUPS Y4, (AX)(DX*2)
	VMOVUPS Y5, 32(AX)(DX*2)
	VMOVUPS Y6, (AX)(BX*1)
	VMOVUPS Y7, 32(AX)(BX*1)
	VZEROUPPER
	RET
