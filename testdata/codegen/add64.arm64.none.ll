source_filename = "add64.lw"
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-linux-gnu"

define hidden i32 @lowentc_add64_add256.kernel(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind {
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
