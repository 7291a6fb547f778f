source_filename = "multi.lw"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@lowentc.multi.level = internal global i32 -1

define internal i32 @lowentc_multi_products.avx512(i32* %x, i32* %y, i32* %out) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq,-slow-unaligned-mem-32" {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i32, i32* %x, i64 %0
	%2 = load i32, i32* %1
	%3 = zext i32 0 to i64
	%4 = getelementptr inbounds i32, i32* %y, i64 %3
	%5 = load i32, i32* %4
	%6 = zext i32 %2 to i64
	%7 = zext i32 %5 to i64
	%8 = mul i64 %6, %7
	%9 = trunc i64 %8 to i32
	%10 = lshr i64 %8, 32
	%11 = trunc i64 %10 to i32
	%12 = zext i32 0 to i64
	%13 = getelementptr inbounds i32, i32* %out, i64 %12
	store i32 %9, i32* %13
	%14 = zext i32 1 to i64
	%15 = getelementptr inbounds i32, i32* %out, i64 %14
	store i32 %11, i32* %15
	%16 = zext i32 1 to i64
	%17 = getelementptr inbounds i32, i32* %x, i64 %16
	%18 = load i32, i32* %17
	%19 = zext i32 1 to i64
	%20 = getelementptr inbounds i32, i32* %y, i64 %19
	%21 = load i32, i32* %20
	%22 = zext i32 %18 to i64
	%23 = zext i32 %21 to i64
	%24 = mul i64 %22, %23
	%25 = trunc i64 %24 to i32
	%26 = lshr i64 %24, 32
	%27 = trunc i64 %26 to i32
	%28 = zext i32 2 to i64
	%29 = getelementptr inbounds i32, i32* %out, i64 %28
	store i32 %25, i32* %29
	%30 = zext i32 3 to i64
	%31 = getelementptr inbounds i32, i32* %out, i64 %30
	store i32 %27, i32* %31
	%32 = zext i32 2 to i64
	%33 = getelementptr inbounds i32, i32* %x, i64 %32
	%34 = load i32, i32* %33
	%35 = zext i32 2 to i64
	%36 = getelementptr inbounds i32, i32* %y, i64 %35
	%37 = load i32, i32* %36
	%38 = zext i32 %34 to i64
	%39 = zext i32 %37 to i64
	%40 = mul i64 %38, %39
	%41 = trunc i64 %40 to i32
	%42 = lshr i64 %40, 32
	%43 = trunc i64 %42 to i32
	%44 = zext i32 4 to i64
	%45 = getelementptr inbounds i32, i32* %out, i64 %44
	store i32 %41, i32* %45
	%46 = zext i32 5 to i64
	%47 = getelementptr inbounds i32, i32* %out, i64 %46
	store i32 %43, i32* %47
	%48 = zext i32 3 to i64
	%49 = getelementptr inbounds i32, i32* %x, i64 %48
	%50 = load i32, i32* %49
	%51 = zext i32 3 to i64
	%52 = getelementptr inbounds i32, i32* %y, i64 %51
	%53 = load i32, i32* %52
	%54 = zext i32 %50 to i64
	%55 = zext i32 %53 to i64
	%56 = mul i64 %54, %55
	%57 = trunc i64 %56 to i32
	%58 = lshr i64 %56, 32
	%59 = trunc i64 %58 to i32
	%60 = zext i32 6 to i64
	%61 = getelementptr inbounds i32, i32* %out, i64 %60
	store i32 %57, i32* %61
	%62 = zext i32 7 to i64
	%63 = getelementptr inbounds i32, i32* %out, i64 %62
	store i32 %59, i32* %63
	ret i32 0
}

define internal i32 @lowentc_multi_products.avx2(i32* %x, i32* %y, i32* %out) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,-slow-unaligned-mem-32" {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i32, i32* %x, i64 %0
	%2 = load i32, i32* %1
	%3 = zext i32 0 to i64
	%4 = getelementptr inbounds i32, i32* %y, i64 %3
	%5 = load i32, i32* %4
	%6 = zext i32 %2 to i64
	%7 = zext i32 %5 to i64
	%8 = mul i64 %6, %7
	%9 = trunc i64 %8 to i32
	%10 = lshr i64 %8, 32
	%11 = trunc i64 %10 to i32
	%12 = zext i32 0 to i64
	%13 = getelementptr inbounds i32, i32* %out, i64 %12
	store i32 %9, i32* %13
	%14 = zext i32 1 to i64
	%15 = getelementptr inbounds i32, i32* %out, i64 %14
	store i32 %11, i32* %15
	%16 = zext i32 1 to i64
	%17 = getelementptr inbounds i32, i32* %x, i64 %16
	%18 = load i32, i32* %17
	%19 = zext i32 1 to i64
	%20 = getelementptr inbounds i32, i32* %y, i64 %19
	%21 = load i32, i32* %20
	%22 = zext i32 %18 to i64
	%23 = zext i32 %21 to i64
	%24 = mul i64 %22, %23
	%25 = trunc i64 %24 to i32
	%26 = lshr i64 %24, 32
	%27 = trunc i64 %26 to i32
	%28 = zext i32 2 to i64
	%29 = getelementptr inbounds i32, i32* %out, i64 %28
	store i32 %25, i32* %29
	%30 = zext i32 3 to i64
	%31 = getelementptr inbounds i32, i32* %out, i64 %30
	store i32 %27, i32* %31
	%32 = zext i32 2 to i64
	%33 = getelementptr inbounds i32, i32* %x, i64 %32
	%34 = load i32, i32* %33
	%35 = zext i32 2 to i64
	%36 = getelementptr inbounds i32, i32* %y, i64 %35
	%37 = load i32, i32* %36
	%38 = zext i32 %34 to i64
	%39 = zext i32 %37 to i64
	%40 = mul i64 %38, %39
	%41 = trunc i64 %40 to i32
	%42 = lshr i64 %40, 32
	%43 = trunc i64 %42 to i32
	%44 = zext i32 4 to i64
	%45 = getelementptr inbounds i32, i32* %out, i64 %44
	store i32 %41, i32* %45
	%46 = zext i32 5 to i64
	%47 = getelementptr inbounds i32, i32* %out, i64 %46
	store i32 %43, i32* %47
	%48 = zext i32 3 to i64
	%49 = getelementptr inbounds i32, i32* %x, i64 %48
	%50 = load i32, i32* %49
	%51 = zext i32 3 to i64
	%52 = getelementptr inbounds i32, i32* %y, i64 %51
	%53 = load i32, i32* %52
	%54 = zext i32 %50 to i64
	%55 = zext i32 %53 to i64
	%56 = mul i64 %54, %55
	%57 = trunc i64 %56 to i32
	%58 = lshr i64 %56, 32
	%59 = trunc i64 %58 to i32
	%60 = zext i32 6 to i64
	%61 = getelementptr inbounds i32, i32* %out, i64 %60
	store i32 %57, i32* %61
	%62 = zext i32 7 to i64
	%63 = getelementptr inbounds i32, i32* %out, i64 %62
	store i32 %59, i32* %63
	ret i32 0
}

define internal i32 @lowentc_multi_products.aes(i32* %x, i32* %y, i32* %out) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2" {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i32, i32* %x, i64 %0
	%2 = load i32, i32* %1
	%3 = zext i32 0 to i64
	%4 = getelementptr inbounds i32, i32* %y, i64 %3
	%5 = load i32, i32* %4
	%6 = zext i32 %2 to i64
	%7 = zext i32 %5 to i64
	%8 = mul i64 %6, %7
	%9 = trunc i64 %8 to i32
	%10 = lshr i64 %8, 32
	%11 = trunc i64 %10 to i32
	%12 = zext i32 0 to i64
	%13 = getelementptr inbounds i32, i32* %out, i64 %12
	store i32 %9, i32* %13
	%14 = zext i32 1 to i64
	%15 = getelementptr inbounds i32, i32* %out, i64 %14
	store i32 %11, i32* %15
	%16 = zext i32 1 to i64
	%17 = getelementptr inbounds i32, i32* %x, i64 %16
	%18 = load i32, i32* %17
	%19 = zext i32 1 to i64
	%20 = getelementptr inbounds i32, i32* %y, i64 %19
	%21 = load i32, i32* %20
	%22 = zext i32 %18 to i64
	%23 = zext i32 %21 to i64
	%24 = mul i64 %22, %23
	%25 = trunc i64 %24 to i32
	%26 = lshr i64 %24, 32
	%27 = trunc i64 %26 to i32
	%28 = zext i32 2 to i64
	%29 = getelementptr inbounds i32, i32* %out, i64 %28
	store i32 %25, i32* %29
	%30 = zext i32 3 to i64
	%31 = getelementptr inbounds i32, i32* %out, i64 %30
	store i32 %27, i32* %31
	%32 = zext i32 2 to i64
	%33 = getelementptr inbounds i32, i32* %x, i64 %32
	%34 = load i32, i32* %33
	%35 = zext i32 2 to i64
	%36 = getelementptr inbounds i32, i32* %y, i64 %35
	%37 = load i32, i32* %36
	%38 = zext i32 %34 to i64
	%39 = zext i32 %37 to i64
	%40 = mul i64 %38, %39
	%41 = trunc i64 %40 to i32
	%42 = lshr i64 %40, 32
	%43 = trunc i64 %42 to i32
	%44 = zext i32 4 to i64
	%45 = getelementptr inbounds i32, i32* %out, i64 %44
	store i32 %41, i32* %45
	%46 = zext i32 5 to i64
	%47 = getelementptr inbounds i32, i32* %out, i64 %46
	store i32 %43, i32* %47
	%48 = zext i32 3 to i64
	%49 = getelementptr inbounds i32, i32* %x, i64 %48
	%50 = load i32, i32* %49
	%51 = zext i32 3 to i64
	%52 = getelementptr inbounds i32, i32* %y, i64 %51
	%53 = load i32, i32* %52
	%54 = zext i32 %50 to i64
	%55 = zext i32 %53 to i64
	%56 = mul i64 %54, %55
	%57 = trunc i64 %56 to i32
	%58 = lshr i64 %56, 32
	%59 = trunc i64 %58 to i32
	%60 = zext i32 6 to i64
	%61 = getelementptr inbounds i32, i32* %out, i64 %60
	store i32 %57, i32* %61
	%62 = zext i32 7 to i64
	%63 = getelementptr inbounds i32, i32* %out, i64 %62
	store i32 %59, i32* %63
	ret i32 0
}

define internal i32 @lowentc_multi_products.soft(i32* %x, i32* %y, i32* %out) nounwind {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i32, i32* %x, i64 %0
	%2 = load i32, i32* %1
	%3 = zext i32 0 to i64
	%4 = getelementptr inbounds i32, i32* %y, i64 %3
	%5 = load i32, i32* %4
	%6 = zext i32 %2 to i64
	%7 = zext i32 %5 to i64
	%8 = mul i64 %6, %7
	%9 = trunc i64 %8 to i32
	%10 = lshr i64 %8, 32
	%11 = trunc i64 %10 to i32
	%12 = zext i32 0 to i64
	%13 = getelementptr inbounds i32, i32* %out, i64 %12
	store i32 %9, i32* %13
	%14 = zext i32 1 to i64
	%15 = getelementptr inbounds i32, i32* %out, i64 %14
	store i32 %11, i32* %15
	%16 = zext i32 1 to i64
	%17 = getelementptr inbounds i32, i32* %x, i64 %16
	%18 = load i32, i32* %17
	%19 = zext i32 1 to i64
	%20 = getelementptr inbounds i32, i32* %y, i64 %19
	%21 = load i32, i32* %20
	%22 = zext i32 %18 to i64
	%23 = zext i32 %21 to i64
	%24 = mul i64 %22, %23
	%25 = trunc i64 %24 to i32
	%26 = lshr i64 %24, 32
	%27 = trunc i64 %26 to i32
	%28 = zext i32 2 to i64
	%29 = getelementptr inbounds i32, i32* %out, i64 %28
	store i32 %25, i32* %29
	%30 = zext i32 3 to i64
	%31 = getelementptr inbounds i32, i32* %out, i64 %30
	store i32 %27, i32* %31
	%32 = zext i32 2 to i64
	%33 = getelementptr inbounds i32, i32* %x, i64 %32
	%34 = load i32, i32* %33
	%35 = zext i32 2 to i64
	%36 = getelementptr inbounds i32, i32* %y, i64 %35
	%37 = load i32, i32* %36
	%38 = zext i32 %34 to i64
	%39 = zext i32 %37 to i64
	%40 = mul i64 %38, %39
	%41 = trunc i64 %40 to i32
	%42 = lshr i64 %40, 32
	%43 = trunc i64 %42 to i32
	%44 = zext i32 4 to i64
	%45 = getelementptr inbounds i32, i32* %out, i64 %44
	store i32 %41, i32* %45
	%46 = zext i32 5 to i64
	%47 = getelementptr inbounds i32, i32* %out, i64 %46
	store i32 %43, i32* %47
	%48 = zext i32 3 to i64
	%49 = getelementptr inbounds i32, i32* %x, i64 %48
	%50 = load i32, i32* %49
	%51 = zext i32 3 to i64
	%52 = getelementptr inbounds i32, i32* %y, i64 %51
	%53 = load i32, i32* %52
	%54 = zext i32 %50 to i64
	%55 = zext i32 %53 to i64
	%56 = mul i64 %54, %55
	%57 = trunc i64 %56 to i32
	%58 = lshr i64 %56, 32
	%59 = trunc i64 %58 to i32
	%60 = zext i32 6 to i64
	%61 = getelementptr inbounds i32, i32* %out, i64 %60
	store i32 %57, i32* %61
	%62 = zext i32 7 to i64
	%63 = getelementptr inbounds i32, i32* %out, i64 %62
	store i32 %59, i32* %63
	ret i32 0
}

define internal i32 @lowentc.multi.detect() nounwind noinline {
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

define internal i32 @lowentc.multi.cpu() nounwind {
entry:
	%0 = load atomic i32, i32* @lowentc.multi.level monotonic, align 4
	%1 = icmp sge i32 %0, 0
	br i1 %1, label %done, label %detect

detect:
	%2 = call i32 @lowentc.multi.detect()
	store atomic i32 %2, i32* @lowentc.multi.level monotonic, align 4
	br label %done

done:
	%3 = phi i32 [ %0, %entry ], [ %2, %detect ]
	ret i32 %3
}

define i32 @lowentc_multi_cpu_level() nounwind {
entry:
	%0 = call i32 @lowentc.multi.cpu()
	%1 = and i32 %0, 255
	ret i32 %1
}

define i32 @lowentc_multi_cpu_flags() nounwind {
entry:
	%0 = call i32 @lowentc.multi.cpu()
	%1 = and i32 %0, -256
	ret i32 %1
}

define i32 @lowentc_multi_force_level(i32 %n) nounwind {
entry:
	%0 = and i32 %n, -257
	%1 = icmp ule i32 %0, 3
	br i1 %1, label %force, label %reject

force:
	%2 = call i32 @lowentc.multi.detect()
	%3 = and i32 %n, 255
	%4 = and i32 %2, 255
	%5 = icmp slt i32 %3, %4
	%6 = and i32 %n, %2
	%7 = and i32 %6, 256
	%8 = select i1 %5, i32 %3, i32 %4
	%9 = or i32 %8, %7
	store atomic i32 %9, i32* @lowentc.multi.level monotonic, align 4
	ret i32 %9

reject:
	ret i32 -1
}

define hidden i32 @lowentc_multi_products.kernel(i32* %x, i32* %y, i32* %out) nounwind {
entry:
	%0 = call i32 @lowentc.multi.cpu()
	%1 = and i32 %0, 255
	%2 = and i32 %0, 256
	%3 = icmp ne i32 %2, 0
	%4 = icmp sge i32 %1, 1
	%5 = select i1 %4, i32 (i32*, i32*, i32*)* @lowentc_multi_products.aes, i32 (i32*, i32*, i32*)* @lowentc_multi_products.soft
	%6 = icmp sge i32 %1, 2
	%7 = select i1 %6, i32 (i32*, i32*, i32*)* @lowentc_multi_products.avx2, i32 (i32*, i32*, i32*)* %5
	%8 = icmp sge i32 %1, 3
	%9 = select i1 %8, i32 (i32*, i32*, i32*)* @lowentc_multi_products.avx512, i32 (i32*, i32*, i32*)* %7
	%10 = tail call i32 %9(i32* %x, i32* %y, i32* %out)
	ret i32 %10
}

define i32 @lowentc_multi_products(i32* %x, i32* %y, i32* %out) nounwind {
entry:
	%0 = icmp eq i32* %x, null
	%1 = or i1 false, %0
	%2 = ptrtoint i32* %x to i64
	%3 = mul i64 4, 4
	%4 = add i64 %2, %3
	%5 = icmp eq i32* %y, null
	%6 = or i1 %1, %5
	%7 = ptrtoint i32* %y to i64
	%8 = mul i64 4, 4
	%9 = add i64 %7, %8
	%10 = icmp eq i32* %out, null
	%11 = or i1 %6, %10
	%12 = ptrtoint i32* %out to i64
	%13 = mul i64 8, 4
	%14 = add i64 %12, %13
	%15 = icmp ult i64 %2, %14
	%16 = icmp ult i64 %12, %4
	%17 = and i1 %15, %16
	%18 = icmp ult i64 %2, %4
	%19 = icmp ult i64 %12, %14
	%20 = and i1 %18, %19
	%21 = and i1 %17, %20
	%22 = icmp eq i64 %2, %12
	%23 = icmp eq i64 %4, %14
	%24 = and i1 %22, %23
	%25 = xor i1 %24, true
	%26 = and i1 %21, %25
	%27 = or i1 %11, %26
	%28 = icmp ult i64 %7, %14
	%29 = icmp ult i64 %12, %9
	%30 = and i1 %28, %29
	%31 = icmp ult i64 %7, %9
	%32 = icmp ult i64 %12, %14
	%33 = and i1 %31, %32
	%34 = and i1 %30, %33
	%35 = icmp eq i64 %7, %12
	%36 = icmp eq i64 %9, %14
	%37 = and i1 %35, %36
	%38 = xor i1 %37, true
	%39 = and i1 %34, %38
	%40 = or i1 %27, %39
	br i1 %40, label %overlap, label %call

call:
	%41 = call i32 @lowentc_multi_products.kernel(i32* %x, i32* %y, i32* %out)
	%42 = icmp slt i32 %41, 0
	%43 = select i1 %42, i32 1, i32 %41
	ret i32 %43

overlap:
	ret i32 1
}
