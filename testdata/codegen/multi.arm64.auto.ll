source_filename = "multi.lw"
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-linux-gnu"

@lowentc.multi.hwcap = internal global i32 -1

define hidden i32 @lowentc_multi_products.kernel(i32* %x, i32* %y, i32* %out) nounwind {
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

declare i64 @getauxval(i64 %type) nounwind

define internal i32 @lowentc.multi.detect() nounwind noinline {
entry:
	%0 = call i64 @getauxval(i64 16)
	%1 = and i64 %0, 88
	%2 = trunc i64 %1 to i32
	ret i32 %2
}

define internal i32 @lowentc.multi.caps() nounwind {
entry:
	%0 = load atomic i32, i32* @lowentc.multi.hwcap monotonic, align 4
	%1 = icmp sge i32 %0, 0
	br i1 %1, label %done, label %detect

detect:
	%2 = call i32 @lowentc.multi.detect()
	store atomic i32 %2, i32* @lowentc.multi.hwcap monotonic, align 4
	br label %done

done:
	%3 = phi i32 [ %0, %entry ], [ %2, %detect ]
	ret i32 %3
}

define i32 @lowentc_multi_cpu_level() nounwind {
entry:
	%0 = call i32 @lowentc.multi.caps()
	%1 = icmp ne i32 %0, 0
	%2 = zext i1 %1 to i32
	ret i32 %2
}

define i32 @lowentc_multi_cpu_flags() nounwind {
entry:
	%0 = call i32 @lowentc.multi.caps()
	ret i32 %0
}

define i32 @lowentc_multi_force_level(i32 %n) nounwind {
entry:
	%0 = icmp ule i32 %n, 1
	br i1 %0, label %force, label %reject

force:
	%1 = icmp eq i32 %n, 0
	%2 = call i32 @lowentc.multi.detect()
	%3 = select i1 %1, i32 0, i32 %2
	store atomic i32 %3, i32* @lowentc.multi.hwcap monotonic, align 4
	%4 = icmp ne i32 %3, 0
	%5 = zext i1 %4 to i32
	ret i32 %5

reject:
	ret i32 -1
}
