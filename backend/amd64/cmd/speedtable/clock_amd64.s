#include "textflag.h"

// func addChain(n int64) int64
TEXT ·addChain(SB), NOSPLIT, $0-16
	MOVQ n+0(FP), CX
	XORQ AX, AX
	MOVQ $1, DX
loop:
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	ADDQ DX, AX
	DECQ CX
	JNZ loop
	MOVQ AX, ret+8(FP)
	RET
