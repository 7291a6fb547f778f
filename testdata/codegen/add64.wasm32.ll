source_filename = "add64.lw"
target datalayout = "e-m:e-p:32:32-i64:64-n32:64-S128"
target triple = "wasm32-unknown-unknown"

define hidden i32 @lowentc_add64_add256.kernel(i64* %a, i64* %b, i64* %out, i64* %ret) nounwind {
b1:
	%0 = getelementptr inbounds i64, i64* %a, i32 0
	%1 = load i64, i64* %0
	%2 = getelementptr inbounds i64, i64* %b, i32 0
	%3 = load i64, i64* %2
	%4 = add i64 %1, %3
	%5 = icmp ult i64 %4, %1
	%6 = zext i1 %5 to i64
	%7 = getelementptr inbounds i64, i64* %out, i32 0
	store i64 %4, i64* %7
	%8 = getelementptr inbounds i64, i64* %a, i32 1
	%9 = load i64, i64* %8
	%10 = add i64 %9, %6
	%11 = getelementptr inbounds i64, i64* %b, i32 1
	%12 = load i64, i64* %11
	%13 = add i64 %10, %12
	%14 = icmp ult i64 %10, %6
	%15 = zext i1 %14 to i64
	%16 = icmp ult i64 %13, %10
	%17 = zext i1 %16 to i64
	%18 = add i64 %15, %17
	%19 = getelementptr inbounds i64, i64* %out, i32 1
	store i64 %13, i64* %19
	%20 = getelementptr inbounds i64, i64* %a, i32 2
	%21 = load i64, i64* %20
	%22 = add i64 %21, %18
	%23 = getelementptr inbounds i64, i64* %b, i32 2
	%24 = load i64, i64* %23
	%25 = add i64 %22, %24
	%26 = icmp ult i64 %22, %18
	%27 = zext i1 %26 to i64
	%28 = icmp ult i64 %25, %22
	%29 = zext i1 %28 to i64
	%30 = add i64 %27, %29
	%31 = getelementptr inbounds i64, i64* %out, i32 2
	store i64 %25, i64* %31
	%32 = getelementptr inbounds i64, i64* %a, i32 3
	%33 = load i64, i64* %32
	%34 = add i64 %33, %30
	%35 = getelementptr inbounds i64, i64* %b, i32 3
	%36 = load i64, i64* %35
	%37 = add i64 %34, %36
	%38 = icmp ult i64 %34, %30
	%39 = zext i1 %38 to i64
	%40 = icmp ult i64 %37, %34
	%41 = zext i1 %40 to i64
	%42 = add i64 %39, %41
	%43 = getelementptr inbounds i64, i64* %out, i32 3
	store i64 %37, i64* %43
	store i64 %42, i64* %ret
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
