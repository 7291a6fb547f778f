source_filename = "loop.lw"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@lowentc.loop.level = internal global i32 -1

define internal i32 @lowentc_loop_mixsum.avx512(i32* %msg, i64 %msg_len, i32* %ret) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq,-slow-unaligned-mem-32" {
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

define internal i32 @lowentc_loop_mixsum.avx2(i32* %msg, i64 %msg_len, i32* %ret) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,-slow-unaligned-mem-32" {
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

define internal i32 @lowentc_loop_mixsum.aes(i32* %msg, i64 %msg_len, i32* %ret) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2" {
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

define internal i32 @lowentc_loop_mixsum.soft(i32* %msg, i64 %msg_len, i32* %ret) nounwind {
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

define internal i32 @lowentc.loop.detect() nounwind noinline {
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

define internal i32 @lowentc.loop.cpu() nounwind {
entry:
	%0 = load atomic i32, i32* @lowentc.loop.level monotonic, align 4
	%1 = icmp sge i32 %0, 0
	br i1 %1, label %done, label %detect

detect:
	%2 = call i32 @lowentc.loop.detect()
	store atomic i32 %2, i32* @lowentc.loop.level monotonic, align 4
	br label %done

done:
	%3 = phi i32 [ %0, %entry ], [ %2, %detect ]
	ret i32 %3
}

define i32 @lowentc_loop_cpu_level() nounwind {
entry:
	%0 = call i32 @lowentc.loop.cpu()
	%1 = and i32 %0, 255
	ret i32 %1
}

define i32 @lowentc_loop_cpu_flags() nounwind {
entry:
	%0 = call i32 @lowentc.loop.cpu()
	%1 = and i32 %0, -256
	ret i32 %1
}

define i32 @lowentc_loop_force_level(i32 %n) nounwind {
entry:
	%0 = and i32 %n, -257
	%1 = icmp ule i32 %0, 3
	br i1 %1, label %force, label %reject

force:
	%2 = call i32 @lowentc.loop.detect()
	%3 = and i32 %n, 255
	%4 = and i32 %2, 255
	%5 = icmp slt i32 %3, %4
	%6 = and i32 %n, %2
	%7 = and i32 %6, 256
	%8 = select i1 %5, i32 %3, i32 %4
	%9 = or i32 %8, %7
	store atomic i32 %9, i32* @lowentc.loop.level monotonic, align 4
	ret i32 %9

reject:
	ret i32 -1
}

define hidden i32 @lowentc_loop_mixsum.kernel(i32* %msg, i64 %msg_len, i32* %ret) nounwind {
entry:
	%0 = call i32 @lowentc.loop.cpu()
	%1 = and i32 %0, 255
	%2 = and i32 %0, 256
	%3 = icmp ne i32 %2, 0
	%4 = icmp sge i32 %1, 1
	%5 = select i1 %4, i32 (i32*, i64, i32*)* @lowentc_loop_mixsum.aes, i32 (i32*, i64, i32*)* @lowentc_loop_mixsum.soft
	%6 = icmp sge i32 %1, 2
	%7 = select i1 %6, i32 (i32*, i64, i32*)* @lowentc_loop_mixsum.avx2, i32 (i32*, i64, i32*)* %5
	%8 = icmp sge i32 %1, 3
	%9 = select i1 %8, i32 (i32*, i64, i32*)* @lowentc_loop_mixsum.avx512, i32 (i32*, i64, i32*)* %7
	%10 = tail call i32 %9(i32* %msg, i64 %msg_len, i32* %ret)
	ret i32 %10
}

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
