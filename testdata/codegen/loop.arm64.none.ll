source_filename = "loop.lw"
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-linux-gnu"

define hidden i32 @lowentc_loop_mixsum.kernel(i32* %msg, i64 %msg_len, i32* %ret) nounwind {
b1:
	%0 = icmp ule i64 %msg_len, u0xFFFFFFFF
	br i1 %0, label %b3, label %b2

b2:
	ret i32 1

b3:
	%1 = trunc i64 %msg_len to i32
	br label %b4

b4:
	%2 = phi i32 [ 0, %b3 ], [ %14, %b5 ]
	%3 = phi i32 [ 1779033703, %b3 ], [ %10, %b5 ]
	%4 = phi i32 [ 3144134277, %b3 ], [ %13, %b5 ]
	%5 = icmp ult i32 %2, %1
	br i1 %5, label %b5, label %b6

b5:
	%6 = zext i32 %2 to i64
	%7 = getelementptr inbounds i32, i32* %msg, i64 %6
	%8 = load i32, i32* %7
	%9 = add i32 %3, %8
	%10 = call i32 @llvm.fshl.i32(i32 %9, i32 %9, i32 7)
	%11 = xor i32 %4, %10
	%12 = call i32 @llvm.fshr.i32(i32 %10, i32 %10, i32 13)
	%13 = add i32 %11, %12
	%14 = add i32 %2, 1
	br label %b4

b6:
	%15 = xor i32 %3, %4
	store i32 %15, i32* %ret
	ret i32 0
}

declare i32 @llvm.fshl.i32(i32 %0, i32 %1, i32 %2)

declare i32 @llvm.fshr.i32(i32 %0, i32 %1, i32 %2)

define i32 @lowentc_loop_mixsum(i32* %msg, i64 %msg_len, i32* %ret) nounwind {
entry:
	%0 = icmp eq i32* %msg, null
	%1 = icmp ne i64 %msg_len, 0
	%2 = and i1 %0, %1
	%3 = or i1 false, %2
	%4 = ptrtoint i32* %msg to i64
	%5 = mul i64 %msg_len, 4
	%6 = add i64 %4, %5
	%7 = icmp eq i32* %ret, null
	%8 = or i1 %3, %7
	br i1 %8, label %overlap, label %call

call:
	%9 = call i32 @lowentc_loop_mixsum.kernel(i32* %msg, i64 %msg_len, i32* %ret)
	%10 = icmp slt i32 %9, 0
	%11 = select i1 %10, i32 1, i32 %9
	ret i32 %11

overlap:
	ret i32 1
}
