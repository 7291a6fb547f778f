source_filename = "inout.lw"
target datalayout = "e-m:e-p:32:32-i64:64-n32:64-S128"
target triple = "wasm32-unknown-unknown"

define hidden i32 @lowentc_inout_xorinto.kernel(i8* %dst, i32 %dst_len, i8* %src, i32 %src_len, i8 %k) nounwind {
b1:
	%0 = icmp eq i32 %dst_len, %src_len
	br i1 %0, label %b3, label %b2

b2:
	ret i32 -1

b3:
	br label %b4

b4:
	%1 = phi i32 [ 0, %b3 ], [ %10, %b5 ]
	%2 = icmp ult i32 %1, %src_len
	br i1 %2, label %b5, label %b6

b5:
	%3 = getelementptr inbounds i8, i8* %dst, i32 %1
	%4 = load i8, i8* %3
	%5 = getelementptr inbounds i8, i8* %src, i32 %1
	%6 = load i8, i8* %5
	%7 = xor i8 %4, %6
	%8 = add i8 %7, %k
	%9 = getelementptr inbounds i8, i8* %dst, i32 %1
	store i8 %8, i8* %9
	%10 = add i32 %1, 1
	br label %b4

b6:
	ret i32 0
}

define i32 @lowentc_inout_xorinto(i8* %dst, i32 %dst_len, i8* %src, i32 %src_len, i8 %k) nounwind {
entry:
	%0 = icmp eq i8* %dst, null
	%1 = icmp ne i32 %dst_len, 0
	%2 = and i1 %0, %1
	%3 = or i1 false, %2
	%4 = zext i32 %dst_len to i64
	%5 = ptrtoint i8* %dst to i64
	%6 = mul i64 %4, 1
	%7 = add i64 %5, %6
	%8 = icmp eq i8* %src, null
	%9 = icmp ne i32 %src_len, 0
	%10 = and i1 %8, %9
	%11 = or i1 %3, %10
	%12 = zext i32 %src_len to i64
	%13 = ptrtoint i8* %src to i64
	%14 = mul i64 %12, 1
	%15 = add i64 %13, %14
	%16 = icmp ult i64 %5, %15
	%17 = icmp ult i64 %13, %7
	%18 = and i1 %16, %17
	%19 = icmp ult i64 %5, %7
	%20 = icmp ult i64 %13, %15
	%21 = and i1 %19, %20
	%22 = and i1 %18, %21
	%23 = icmp eq i64 %5, %13
	%24 = icmp eq i64 %7, %15
	%25 = and i1 %23, %24
	%26 = xor i1 %25, true
	%27 = and i1 %22, %26
	%28 = or i1 %11, %27
	br i1 %28, label %overlap, label %call

call:
	%29 = call i32 @lowentc_inout_xorinto.kernel(i8* %dst, i32 %dst_len, i8* %src, i32 %src_len, i8 %k)
	%30 = icmp slt i32 %29, 0
	%31 = select i1 %30, i32 1, i32 %29
	ret i32 %31

overlap:
	ret i32 1
}
