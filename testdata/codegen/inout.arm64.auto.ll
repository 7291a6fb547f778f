source_filename = "inout.lw"
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-linux-gnu"

@lowentc.inout.hwcap = internal global i32 -1

define hidden i32 @lowentc_inout_xorinto.kernel(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind {
b1:
	%0 = icmp ule i64 %dst_len, u0xFFFFFFFF
	br i1 %0, label %b3, label %b2

b2:
	ret i32 1

b3:
	%1 = trunc i64 %dst_len to i32
	%2 = icmp ule i64 %src_len, u0xFFFFFFFF
	br i1 %2, label %b4, label %b2

b4:
	%3 = trunc i64 %src_len to i32
	%4 = icmp eq i32 %1, %3
	br i1 %4, label %b6, label %b5

b5:
	ret i32 -1

b6:
	br label %b7

b7:
	%5 = phi i32 [ 0, %b6 ], [ %17, %b8 ]
	%6 = icmp ult i32 %5, %3
	br i1 %6, label %b8, label %b9

b8:
	%7 = zext i32 %5 to i64
	%8 = getelementptr inbounds i8, i8* %dst, i64 %7
	%9 = load i8, i8* %8
	%10 = zext i32 %5 to i64
	%11 = getelementptr inbounds i8, i8* %src, i64 %10
	%12 = load i8, i8* %11
	%13 = xor i8 %9, %12
	%14 = add i8 %13, %k
	%15 = zext i32 %5 to i64
	%16 = getelementptr inbounds i8, i8* %dst, i64 %15
	store i8 %14, i8* %16
	%17 = add i32 %5, 1
	br label %b7

b9:
	ret i32 0
}

define i32 @lowentc_inout_xorinto(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind {
entry:
	%0 = icmp eq i8* %dst, null
	%1 = icmp ne i64 %dst_len, 0
	%2 = and i1 %0, %1
	%3 = or i1 false, %2
	%4 = ptrtoint i8* %dst to i64
	%5 = mul i64 %dst_len, 1
	%6 = add i64 %4, %5
	%7 = icmp eq i8* %src, null
	%8 = icmp ne i64 %src_len, 0
	%9 = and i1 %7, %8
	%10 = or i1 %3, %9
	%11 = ptrtoint i8* %src to i64
	%12 = mul i64 %src_len, 1
	%13 = add i64 %11, %12
	%14 = icmp ult i64 %4, %13
	%15 = icmp ult i64 %11, %6
	%16 = and i1 %14, %15
	%17 = icmp ult i64 %4, %6
	%18 = icmp ult i64 %11, %13
	%19 = and i1 %17, %18
	%20 = and i1 %16, %19
	%21 = icmp eq i64 %4, %11
	%22 = icmp eq i64 %6, %13
	%23 = and i1 %21, %22
	%24 = xor i1 %23, true
	%25 = and i1 %20, %24
	%26 = or i1 %10, %25
	br i1 %26, label %overlap, label %call

call:
	%27 = call i32 @lowentc_inout_xorinto.kernel(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k)
	%28 = icmp slt i32 %27, 0
	%29 = select i1 %28, i32 1, i32 %27
	ret i32 %29

overlap:
	ret i32 1
}

declare i64 @getauxval(i64 %type) nounwind

define internal i32 @lowentc.inout.detect() nounwind noinline {
entry:
	%0 = call i64 @getauxval(i64 16)
	%1 = and i64 %0, 88
	%2 = trunc i64 %1 to i32
	ret i32 %2
}

define internal i32 @lowentc.inout.caps() nounwind {
entry:
	%0 = load atomic i32, i32* @lowentc.inout.hwcap monotonic, align 4
	%1 = icmp sge i32 %0, 0
	br i1 %1, label %done, label %detect

detect:
	%2 = call i32 @lowentc.inout.detect()
	store atomic i32 %2, i32* @lowentc.inout.hwcap monotonic, align 4
	br label %done

done:
	%3 = phi i32 [ %0, %entry ], [ %2, %detect ]
	ret i32 %3
}

define i32 @lowentc_inout_cpu_level() nounwind {
entry:
	%0 = call i32 @lowentc.inout.caps()
	%1 = icmp ne i32 %0, 0
	%2 = zext i1 %1 to i32
	ret i32 %2
}

define i32 @lowentc_inout_cpu_flags() nounwind {
entry:
	%0 = call i32 @lowentc.inout.caps()
	ret i32 %0
}

define i32 @lowentc_inout_force_level(i32 %n) nounwind {
entry:
	%0 = icmp ule i32 %n, 1
	br i1 %0, label %force, label %reject

force:
	%1 = icmp eq i32 %n, 0
	%2 = call i32 @lowentc.inout.detect()
	%3 = select i1 %1, i32 0, i32 %2
	store atomic i32 %3, i32* @lowentc.inout.hwcap monotonic, align 4
	%4 = icmp ne i32 %3, 0
	%5 = zext i1 %4 to i32
	ret i32 %5

reject:
	ret i32 -1
}
