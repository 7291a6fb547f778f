source_filename = "add64.lw"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@lowentc.add64.level = internal global i32 -1

define internal i32 @lowentc_add64_add256.avx512(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq,-slow-unaligned-mem-32" {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i64, i64* %a, i64 %0
	%2 = bitcast i64* %1 to <2 x i64>*
	%3 = load <2 x i64>, <2 x i64>* %2, align 1
	%4 = extractelement <2 x i64> %3, i32 0
	%5 = extractelement <2 x i64> %3, i32 1
	%6 = zext i32 0 to i64
	%7 = getelementptr inbounds i64, i64* %b, i64 %6
	%8 = bitcast i64* %7 to <2 x i64>*
	%9 = load <2 x i64>, <2 x i64>* %8, align 1
	%10 = extractelement <2 x i64> %9, i32 0
	%11 = extractelement <2 x i64> %9, i32 1
	%12 = add i64 %4, %10
	%13 = icmp ult i64 %12, %4
	%14 = zext i1 %13 to i64
	%15 = add i64 %5, %14
	%16 = add i64 %15, %11
	%17 = icmp ult i64 %15, %14
	%18 = zext i1 %17 to i64
	%19 = icmp ult i64 %16, %15
	%20 = zext i1 %19 to i64
	%21 = add i64 %18, %20
	%22 = zext i32 0 to i64
	%23 = getelementptr inbounds i64, i64* %out, i64 %22
	store i64 %12, i64* %23
	%24 = zext i32 1 to i64
	%25 = getelementptr inbounds i64, i64* %out, i64 %24
	store i64 %16, i64* %25
	%26 = zext i32 2 to i64
	%27 = getelementptr inbounds i64, i64* %a, i64 %26
	%28 = bitcast i64* %27 to <2 x i64>*
	%29 = load <2 x i64>, <2 x i64>* %28, align 1
	%30 = extractelement <2 x i64> %29, i32 0
	%31 = extractelement <2 x i64> %29, i32 1
	%32 = add i64 %30, %21
	%33 = zext i32 2 to i64
	%34 = getelementptr inbounds i64, i64* %b, i64 %33
	%35 = bitcast i64* %34 to <2 x i64>*
	%36 = load <2 x i64>, <2 x i64>* %35, align 1
	%37 = extractelement <2 x i64> %36, i32 0
	%38 = extractelement <2 x i64> %36, i32 1
	%39 = add i64 %32, %37
	%40 = icmp ult i64 %32, %21
	%41 = zext i1 %40 to i64
	%42 = icmp ult i64 %39, %32
	%43 = zext i1 %42 to i64
	%44 = add i64 %41, %43
	%45 = add i64 %31, %44
	%46 = add i64 %45, %38
	%47 = icmp ult i64 %45, %44
	%48 = zext i1 %47 to i64
	%49 = icmp ult i64 %46, %45
	%50 = zext i1 %49 to i64
	%51 = add i64 %48, %50
	%52 = zext i32 2 to i64
	%53 = getelementptr inbounds i64, i64* %out, i64 %52
	store i64 %39, i64* %53
	%54 = zext i32 3 to i64
	%55 = getelementptr inbounds i64, i64* %out, i64 %54
	store i64 %46, i64* %55
	store i64 %51, i64* %ret
	ret i32 0
}

define internal i32 @lowentc_add64_add256.avx2(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2,+avx,+avx2,+bmi,+bmi2,-slow-unaligned-mem-32" {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i64, i64* %a, i64 %0
	%2 = bitcast i64* %1 to <2 x i64>*
	%3 = load <2 x i64>, <2 x i64>* %2, align 1
	%4 = extractelement <2 x i64> %3, i32 0
	%5 = extractelement <2 x i64> %3, i32 1
	%6 = zext i32 0 to i64
	%7 = getelementptr inbounds i64, i64* %b, i64 %6
	%8 = bitcast i64* %7 to <2 x i64>*
	%9 = load <2 x i64>, <2 x i64>* %8, align 1
	%10 = extractelement <2 x i64> %9, i32 0
	%11 = extractelement <2 x i64> %9, i32 1
	%12 = add i64 %4, %10
	%13 = icmp ult i64 %12, %4
	%14 = zext i1 %13 to i64
	%15 = add i64 %5, %14
	%16 = add i64 %15, %11
	%17 = icmp ult i64 %15, %14
	%18 = zext i1 %17 to i64
	%19 = icmp ult i64 %16, %15
	%20 = zext i1 %19 to i64
	%21 = add i64 %18, %20
	%22 = zext i32 2 to i64
	%23 = getelementptr inbounds i64, i64* %a, i64 %22
	%24 = bitcast i64* %23 to <2 x i64>*
	%25 = load <2 x i64>, <2 x i64>* %24, align 1
	%26 = extractelement <2 x i64> %25, i32 0
	%27 = extractelement <2 x i64> %25, i32 1
	%28 = add i64 %26, %21
	%29 = zext i32 2 to i64
	%30 = getelementptr inbounds i64, i64* %b, i64 %29
	%31 = bitcast i64* %30 to <2 x i64>*
	%32 = load <2 x i64>, <2 x i64>* %31, align 1
	%33 = extractelement <2 x i64> %32, i32 0
	%34 = extractelement <2 x i64> %32, i32 1
	%35 = add i64 %28, %33
	%36 = icmp ult i64 %28, %21
	%37 = zext i1 %36 to i64
	%38 = icmp ult i64 %35, %28
	%39 = zext i1 %38 to i64
	%40 = add i64 %37, %39
	%41 = add i64 %27, %40
	%42 = add i64 %41, %34
	%43 = icmp ult i64 %41, %40
	%44 = zext i1 %43 to i64
	%45 = icmp ult i64 %42, %41
	%46 = zext i1 %45 to i64
	%47 = add i64 %44, %46
	%48 = zext i32 0 to i64
	%49 = getelementptr inbounds i64, i64* %out, i64 %48
	store i64 %12, i64* %49
	%50 = zext i32 1 to i64
	%51 = getelementptr inbounds i64, i64* %out, i64 %50
	store i64 %16, i64* %51
	%52 = zext i32 2 to i64
	%53 = getelementptr inbounds i64, i64* %out, i64 %52
	store i64 %35, i64* %53
	%54 = zext i32 3 to i64
	%55 = getelementptr inbounds i64, i64* %out, i64 %54
	store i64 %42, i64* %55
	store i64 %47, i64* %ret
	ret i32 0
}

define internal i32 @lowentc_add64_add256.aes(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind "target-features"="+sse2,+ssse3,+sse4.1,+sse4.2" {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i64, i64* %a, i64 %0
	%2 = bitcast i64* %1 to <2 x i64>*
	%3 = load <2 x i64>, <2 x i64>* %2, align 1
	%4 = extractelement <2 x i64> %3, i32 0
	%5 = extractelement <2 x i64> %3, i32 1
	%6 = zext i32 0 to i64
	%7 = getelementptr inbounds i64, i64* %b, i64 %6
	%8 = bitcast i64* %7 to <2 x i64>*
	%9 = load <2 x i64>, <2 x i64>* %8, align 1
	%10 = extractelement <2 x i64> %9, i32 0
	%11 = extractelement <2 x i64> %9, i32 1
	%12 = add i64 %4, %10
	%13 = icmp ult i64 %12, %4
	%14 = zext i1 %13 to i64
	%15 = add i64 %5, %14
	%16 = add i64 %15, %11
	%17 = icmp ult i64 %15, %14
	%18 = zext i1 %17 to i64
	%19 = icmp ult i64 %16, %15
	%20 = zext i1 %19 to i64
	%21 = add i64 %18, %20
	%22 = zext i32 0 to i64
	%23 = getelementptr inbounds i64, i64* %out, i64 %22
	store i64 %12, i64* %23
	%24 = zext i32 1 to i64
	%25 = getelementptr inbounds i64, i64* %out, i64 %24
	store i64 %16, i64* %25
	%26 = zext i32 2 to i64
	%27 = getelementptr inbounds i64, i64* %a, i64 %26
	%28 = bitcast i64* %27 to <2 x i64>*
	%29 = load <2 x i64>, <2 x i64>* %28, align 1
	%30 = extractelement <2 x i64> %29, i32 0
	%31 = extractelement <2 x i64> %29, i32 1
	%32 = add i64 %30, %21
	%33 = zext i32 2 to i64
	%34 = getelementptr inbounds i64, i64* %b, i64 %33
	%35 = bitcast i64* %34 to <2 x i64>*
	%36 = load <2 x i64>, <2 x i64>* %35, align 1
	%37 = extractelement <2 x i64> %36, i32 0
	%38 = extractelement <2 x i64> %36, i32 1
	%39 = add i64 %32, %37
	%40 = icmp ult i64 %32, %21
	%41 = zext i1 %40 to i64
	%42 = icmp ult i64 %39, %32
	%43 = zext i1 %42 to i64
	%44 = add i64 %41, %43
	%45 = add i64 %31, %44
	%46 = add i64 %45, %38
	%47 = icmp ult i64 %45, %44
	%48 = zext i1 %47 to i64
	%49 = icmp ult i64 %46, %45
	%50 = zext i1 %49 to i64
	%51 = add i64 %48, %50
	%52 = zext i32 2 to i64
	%53 = getelementptr inbounds i64, i64* %out, i64 %52
	store i64 %39, i64* %53
	%54 = zext i32 3 to i64
	%55 = getelementptr inbounds i64, i64* %out, i64 %54
	store i64 %46, i64* %55
	store i64 %51, i64* %ret
	ret i32 0
}

define internal i32 @lowentc_add64_add256.soft(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind {
b1:
	%0 = zext i32 0 to i64
	%1 = getelementptr inbounds i64, i64* %a, i64 %0
	%2 = load i64, i64* %1
	%3 = zext i32 0 to i64
	%4 = getelementptr inbounds i64, i64* %b, i64 %3
	%5 = load i64, i64* %4
	%6 = add i64 %2, %5
	%7 = icmp ult i64 %6, %2
	%8 = zext i1 %7 to i64
	%9 = zext i32 0 to i64
	%10 = getelementptr inbounds i64, i64* %out, i64 %9
	store i64 %6, i64* %10
	%11 = zext i32 1 to i64
	%12 = getelementptr inbounds i64, i64* %a, i64 %11
	%13 = load i64, i64* %12
	%14 = add i64 %13, %8
	%15 = zext i32 1 to i64
	%16 = getelementptr inbounds i64, i64* %b, i64 %15
	%17 = load i64, i64* %16
	%18 = add i64 %14, %17
	%19 = icmp ult i64 %14, %8
	%20 = zext i1 %19 to i64
	%21 = icmp ult i64 %18, %14
	%22 = zext i1 %21 to i64
	%23 = add i64 %20, %22
	%24 = zext i32 1 to i64
	%25 = getelementptr inbounds i64, i64* %out, i64 %24
	store i64 %18, i64* %25
	%26 = zext i32 2 to i64
	%27 = getelementptr inbounds i64, i64* %a, i64 %26
	%28 = load i64, i64* %27
	%29 = add i64 %28, %23
	%30 = zext i32 2 to i64
	%31 = getelementptr inbounds i64, i64* %b, i64 %30
	%32 = load i64, i64* %31
	%33 = add i64 %29, %32
	%34 = icmp ult i64 %29, %23
	%35 = zext i1 %34 to i64
	%36 = icmp ult i64 %33, %29
	%37 = zext i1 %36 to i64
	%38 = add i64 %35, %37
	%39 = zext i32 2 to i64
	%40 = getelementptr inbounds i64, i64* %out, i64 %39
	store i64 %33, i64* %40
	%41 = zext i32 3 to i64
	%42 = getelementptr inbounds i64, i64* %a, i64 %41
	%43 = load i64, i64* %42
	%44 = add i64 %43, %38
	%45 = zext i32 3 to i64
	%46 = getelementptr inbounds i64, i64* %b, i64 %45
	%47 = load i64, i64* %46
	%48 = add i64 %44, %47
	%49 = icmp ult i64 %44, %38
	%50 = zext i1 %49 to i64
	%51 = icmp ult i64 %48, %44
	%52 = zext i1 %51 to i64
	%53 = add i64 %50, %52
	%54 = zext i32 3 to i64
	%55 = getelementptr inbounds i64, i64* %out, i64 %54
	store i64 %48, i64* %55
	store i64 %53, i64* %ret
	ret i32 0
}

define internal i32 @lowentc.add64.detect() nounwind noinline {
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

define internal i32 @lowentc.add64.cpu() nounwind {
entry:
	%0 = load atomic i32, i32* @lowentc.add64.level monotonic, align 4
	%1 = icmp sge i32 %0, 0
	br i1 %1, label %done, label %detect

detect:
	%2 = call i32 @lowentc.add64.detect()
	store atomic i32 %2, i32* @lowentc.add64.level monotonic, align 4
	br label %done

done:
	%3 = phi i32 [ %0, %entry ], [ %2, %detect ]
	ret i32 %3
}

define i32 @lowentc_add64_cpu_level() nounwind {
entry:
	%0 = call i32 @lowentc.add64.cpu()
	%1 = and i32 %0, 255
	ret i32 %1
}

define i32 @lowentc_add64_cpu_flags() nounwind {
entry:
	%0 = call i32 @lowentc.add64.cpu()
	%1 = and i32 %0, -256
	ret i32 %1
}

define i32 @lowentc_add64_force_level(i32 %n) nounwind {
entry:
	%0 = and i32 %n, -257
	%1 = icmp ule i32 %0, 3
	br i1 %1, label %force, label %reject

force:
	%2 = call i32 @lowentc.add64.detect()
	%3 = and i32 %n, 255
	%4 = and i32 %2, 255
	%5 = icmp slt i32 %3, %4
	%6 = and i32 %n, %2
	%7 = and i32 %6, 256
	%8 = select i1 %5, i32 %3, i32 %4
	%9 = or i32 %8, %7
	store atomic i32 %9, i32* @lowentc.add64.level monotonic, align 4
	ret i32 %9

reject:
	ret i32 -1
}

define hidden i32 @lowentc_add64_add256.kernel(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind {
entry:
	%0 = call i32 @lowentc.add64.cpu()
	%1 = and i32 %0, 255
	%2 = and i32 %0, 256
	%3 = icmp ne i32 %2, 0
	%4 = icmp sge i32 %1, 1
	%5 = select i1 %4, i32 (i64*, i64*, i64*, i64*)* @lowentc_add64_add256.aes, i32 (i64*, i64*, i64*, i64*)* @lowentc_add64_add256.soft
	%6 = icmp sge i32 %1, 2
	%7 = select i1 %6, i32 (i64*, i64*, i64*, i64*)* @lowentc_add64_add256.avx2, i32 (i64*, i64*, i64*, i64*)* %5
	%8 = icmp sge i32 %1, 3
	%9 = select i1 %8, i32 (i64*, i64*, i64*, i64*)* @lowentc_add64_add256.avx512, i32 (i64*, i64*, i64*, i64*)* %7
	%10 = tail call i32 %9(i64* %a, i64* %b, i64* %out, i64* %ret)
	ret i32 %10
}

define i32 @lowentc_add64_add256(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind {
entry:
	%0 = icmp eq i64* %a, null
	%1 = or i1 false, %0
	%2 = ptrtoint i64* %a to i64
	%3 = mul i64 4, 8
	%4 = add i64 %2, %3
	%5 = icmp eq i64* %b, null
	%6 = or i1 %1, %5
	%7 = ptrtoint i64* %b to i64
	%8 = mul i64 4, 8
	%9 = add i64 %7, %8
	%10 = icmp eq i64* %out, null
	%11 = or i1 %6, %10
	%12 = ptrtoint i64* %out to i64
	%13 = mul i64 4, 8
	%14 = add i64 %12, %13
	%15 = icmp eq i64* %ret, null
	%16 = or i1 %11, %15
	%17 = icmp ult i64 %2, %14
	%18 = icmp ult i64 %12, %4
	%19 = and i1 %17, %18
	%20 = icmp ult i64 %2, %4
	%21 = icmp ult i64 %12, %14
	%22 = and i1 %20, %21
	%23 = and i1 %19, %22
	%24 = icmp eq i64 %2, %12
	%25 = icmp eq i64 %4, %14
	%26 = and i1 %24, %25
	%27 = xor i1 %26, true
	%28 = and i1 %23, %27
	%29 = or i1 %16, %28
	%30 = icmp ult i64 %7, %14
	%31 = icmp ult i64 %12, %9
	%32 = and i1 %30, %31
	%33 = icmp ult i64 %7, %9
	%34 = icmp ult i64 %12, %14
	%35 = and i1 %33, %34
	%36 = and i1 %32, %35
	%37 = icmp eq i64 %7, %12
	%38 = icmp eq i64 %9, %14
	%39 = and i1 %37, %38
	%40 = xor i1 %39, true
	%41 = and i1 %36, %40
	%42 = or i1 %29, %41
	br i1 %42, label %overlap, label %call

call:
	%43 = call i32 @lowentc_add64_add256.kernel(i64* %a, i64* %b, i64* %out, i64* %ret)
	%44 = icmp slt i32 %43, 0
	%45 = select i1 %44, i32 1, i32 %43
	ret i32 %45

overlap:
	ret i32 1
}
