source_filename = "loop.lw"
target datalayout = "e-m:e-p:32:32-i64:64-n32:64-S128"
target triple = "wasm32-unknown-unknown"

define hidden i32 @lowentc_loop_mixsum.kernel(i32* %msg, i32 %msg_len, i32* %ret) nounwind {
b1:
	br label %b2

b2:
	%0 = phi i32 [ 0, %b1 ], [ %11, %b3 ]
	%1 = phi i32 [ 1779033703, %b1 ], [ %7, %b3 ]
	%2 = phi i32 [ 3144134277, %b1 ], [ %10, %b3 ]
	%3 = icmp ult i32 %0, %msg_len
	br i1 %3, label %b3, label %b4

b3:
	%4 = getelementptr inbounds i32, i32* %msg, i32 %0
	%5 = load i32, i32* %4
	%6 = add i32 %1, %5
	%7 = call i32 @llvm.fshl.i32(i32 %6, i32 %6, i32 7)
	%8 = xor i32 %2, %7
	%9 = call i32 @llvm.fshr.i32(i32 %7, i32 %7, i32 13)
	%10 = add i32 %8, %9
	%11 = add i32 %0, 1
	br label %b2

b4:
	%12 = xor i32 %1, %2
	store i32 %12, i32* %ret
	ret i32 0
}

declare i32 @llvm.fshl.i32(i32 %0, i32 %1, i32 %2)

declare i32 @llvm.fshr.i32(i32 %0, i32 %1, i32 %2)

define i32 @lowentc_loop_mixsum(i32* %msg, i32 %msg_len, i32* %ret) nounwind {
entry:
	%0 = icmp eq i32* %msg, null
	%1 = icmp ne i32 %msg_len, 0
	%2 = and i1 %0, %1
	%3 = or i1 false, %2
	%4 = zext i32 %msg_len to i64
	%5 = ptrtoint i32* %msg to i64
	%6 = mul i64 %4, 4
	%7 = add i64 %5, %6
	%8 = icmp eq i32* %ret, null
	%9 = or i1 %3, %8
	br i1 %9, label %overlap, label %call

call:
	%10 = call i32 @lowentc_loop_mixsum.kernel(i32* %msg, i32 %msg_len, i32* %ret)
	%11 = icmp slt i32 %10, 0
	%12 = select i1 %11, i32 1, i32 %10
	ret i32 %12

overlap:
	ret i32 1
}
