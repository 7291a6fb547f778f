source_filename = "inout.lw"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@lowentc.inout.level = internal global i32 -1

define internal i32 @lowentc_inout_xorinto.avx512(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq,-slow-unaligned-mem-32" {
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

define internal i32 @lowentc_inout_xorinto.avx2(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,-slow-unaligned-mem-32" {
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

define internal i32 @lowentc_inout_xorinto.aes(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2" {
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

define internal i32 @lowentc_inout_xorinto.soft(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind {
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

define internal i32 @lowentc.inout.detect() nounwind noinline {
entry:
	%0 = call { i32, i32, i32, i32 } asm "cpuid", "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}"(i32 0, i32 0)
	%1 = extractvalue { i32, i32, i32, i32 } %0, 0
	%2 = call { i32, i32, i32, i32 } asm "cpuid", "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}"(i32 1, i32 0)
	%3 = extractvalue { i32, i32, i32, i32 } %2, 2
	%4 = and i32 %3, 2
	%5 = icmp ne i32 %4, 0
	%6 = and i32 %3, 512
	%7 = icmp ne i32 %6, 0
	%8 = and i32 %3, u0x80000
	%9 = icmp ne i32 %8, 0
	%10 = and i32 %3, u0x100000
	%11 = icmp ne i32 %10, 0
	%12 = and i32 %3, u0x2000000
	%13 = icmp ne i32 %12, 0
	%14 = and i1 %5, %7
	%15 = and i1 %14, %9
	%16 = and i1 %15, %11
	%17 = and i1 %16, %13
	%18 = select i1 %17, i32 1, i32 0
	%19 = icmp uge i32 %1, 7
	%20 = call { i32, i32, i32, i32 } asm "cpuid", "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}"(i32 7, i32 0)
	%21 = extractvalue { i32, i32, i32, i32 } %20, 1
	%22 = and i32 %21, u0x20000000
	%23 = icmp ne i32 %22, 0
	%24 = and i1 %17, %19
	%25 = and i1 %24, %23
	%26 = select i1 %25, i32 256, i32 0
	%27 = and i32 %3, u0x8000000
	%28 = icmp ne i32 %27, 0
	%29 = and i32 %3, u0x10000000
	%30 = icmp ne i32 %29, 0
	%31 = icmp uge i32 %1, 7
	%32 = and i1 %17, %28
	%33 = and i1 %32, %30
	%34 = and i1 %33, %31
	br i1 %34, label %xsave, label %done

xsave:
	%35 = call { i32, i32 } asm "xgetbv", "={ax},={dx},{cx},~{dirflag},~{fpsr},~{flags}"(i32 0)
	%36 = extractvalue { i32, i32 } %35, 0
	%37 = and i32 %36, 6
	%38 = icmp eq i32 %37, 6
	br i1 %38, label %leaf7, label %done

leaf7:
	%39 = call { i32, i32, i32, i32 } asm "cpuid", "={ax},={bx},={cx},={dx},{ax},{cx},~{dirflag},~{fpsr},~{flags}"(i32 7, i32 0)
	%40 = extractvalue { i32, i32, i32, i32 } %39, 1
	%41 = extractvalue { i32, i32, i32, i32 } %39, 2
	%42 = and i32 %40, 8
	%43 = icmp ne i32 %42, 0
	%44 = and i32 %40, 32
	%45 = icmp ne i32 %44, 0
	%46 = and i32 %40, 256
	%47 = icmp ne i32 %46, 0
	%48 = and i32 %41, 512
	%49 = icmp ne i32 %48, 0
	%50 = and i32 %41, 1024
	%51 = icmp ne i32 %50, 0
	%52 = and i1 %43, %45
	%53 = and i1 %52, %47
	%54 = and i1 %53, %49
	%55 = and i1 %54, %51
	%56 = and i32 %36, 230
	%57 = icmp eq i32 %56, 230
	%58 = and i32 %40, 65536
	%59 = icmp ne i32 %58, 0
	%60 = and i32 %40, u0x20000
	%61 = icmp ne i32 %60, 0
	%62 = and i32 %40, u0x40000000
	%63 = icmp ne i32 %62, 0
	%64 = and i32 %40, u0x80000000
	%65 = icmp ne i32 %64, 0
	%66 = and i1 %55, %57
	%67 = and i1 %66, %59
	%68 = and i1 %67, %61
	%69 = and i1 %68, %63
	%70 = and i1 %69, %65
	%71 = select i1 %55, i32 2, i32 1
	%72 = select i1 %70, i32 3, i32 %71
	br label %done

done:
	%73 = phi i32 [ %18, %entry ], [ %18, %xsave ], [ %72, %leaf7 ]
	%74 = or i32 %73, %26
	ret i32 %74
}

define internal i32 @lowentc.inout.cpu() nounwind {
entry:
	%0 = load atomic i32, i32* @lowentc.inout.level monotonic, align 4
	%1 = icmp sge i32 %0, 0
	br i1 %1, label %done, label %detect

detect:
	%2 = call i32 @lowentc.inout.detect()
	store atomic i32 %2, i32* @lowentc.inout.level monotonic, align 4
	br label %done

done:
	%3 = phi i32 [ %0, %entry ], [ %2, %detect ]
	ret i32 %3
}

define i32 @lowentc_inout_cpu_level() nounwind {
entry:
	%0 = call i32 @lowentc.inout.cpu()
	%1 = and i32 %0, 255
	ret i32 %1
}

define i32 @lowentc_inout_cpu_flags() nounwind {
entry:
	%0 = call i32 @lowentc.inout.cpu()
	%1 = and i32 %0, -256
	ret i32 %1
}

define i32 @lowentc_inout_force_level(i32 %n) nounwind {
entry:
	%0 = and i32 %n, -257
	%1 = icmp ule i32 %0, 3
	br i1 %1, label %force, label %reject

force:
	%2 = call i32 @lowentc.inout.detect()
	%3 = and i32 %n, 255
	%4 = and i32 %2, 255
	%5 = icmp slt i32 %3, %4
	%6 = and i32 %n, %2
	%7 = and i32 %6, 256
	%8 = select i1 %5, i32 %3, i32 %4
	%9 = or i32 %8, %7
	store atomic i32 %9, i32* @lowentc.inout.level monotonic, align 4
	ret i32 %9

reject:
	ret i32 -1
}

define hidden i32 @lowentc_inout_xorinto.kernel(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k) nounwind {
entry:
	%0 = call i32 @lowentc.inout.cpu()
	%1 = and i32 %0, 255
	%2 = and i32 %0, 256
	%3 = icmp ne i32 %2, 0
	%4 = icmp sge i32 %1, 1
	%5 = select i1 %4, i32 (i8*, i64, i8*, i64, i8)* @lowentc_inout_xorinto.aes, i32 (i8*, i64, i8*, i64, i8)* @lowentc_inout_xorinto.soft
	%6 = icmp sge i32 %1, 2
	%7 = select i1 %6, i32 (i8*, i64, i8*, i64, i8)* @lowentc_inout_xorinto.avx2, i32 (i8*, i64, i8*, i64, i8)* %5
	%8 = icmp sge i32 %1, 3
	%9 = select i1 %8, i32 (i8*, i64, i8*, i64, i8)* @lowentc_inout_xorinto.avx512, i32 (i8*, i64, i8*, i64, i8)* %7
	%10 = tail call i32 %9(i8* %dst, i64 %dst_len, i8* %src, i64 %src_len, i8 %k)
	ret i32 %10
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
