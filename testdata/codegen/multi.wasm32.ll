source_filename = "multi.lw"
target datalayout = "e-m:e-p:32:32-i64:64-n32:64-S128"
target triple = "wasm32-unknown-unknown"

define hidden i32 @lowentc_multi_products.kernel(i32* %x, i32* %y, i32* %out) nounwind {
b1:
	%0 = getelementptr inbounds i32, i32* %x, i32 0
	%1 = load i32, i32* %0
	%2 = getelementptr inbounds i32, i32* %y, i32 0
	%3 = load i32, i32* %2
	%4 = zext i32 %1 to i64
	%5 = zext i32 %3 to i64
	%6 = mul i64 %4, %5
	%7 = trunc i64 %6 to i32
	%8 = lshr i64 %6, 32
	%9 = trunc i64 %8 to i32
	%10 = getelementptr inbounds i32, i32* %out, i32 0
	store i32 %7, i32* %10
	%11 = getelementptr inbounds i32, i32* %out, i32 1
	store i32 %9, i32* %11
	%12 = getelementptr inbounds i32, i32* %x, i32 1
	%13 = load i32, i32* %12
	%14 = getelementptr inbounds i32, i32* %y, i32 1
	%15 = load i32, i32* %14
	%16 = zext i32 %13 to i64
	%17 = zext i32 %15 to i64
	%18 = mul i64 %16, %17
	%19 = trunc i64 %18 to i32
	%20 = lshr i64 %18, 32
	%21 = trunc i64 %20 to i32
	%22 = getelementptr inbounds i32, i32* %out, i32 2
	store i32 %19, i32* %22
	%23 = getelementptr inbounds i32, i32* %out, i32 3
	store i32 %21, i32* %23
	%24 = getelementptr inbounds i32, i32* %x, i32 2
	%25 = load i32, i32* %24
	%26 = getelementptr inbounds i32, i32* %y, i32 2
	%27 = load i32, i32* %26
	%28 = zext i32 %25 to i64
	%29 = zext i32 %27 to i64
	%30 = mul i64 %28, %29
	%31 = trunc i64 %30 to i32
	%32 = lshr i64 %30, 32
	%33 = trunc i64 %32 to i32
	%34 = getelementptr inbounds i32, i32* %out, i32 4
	store i32 %31, i32* %34
	%35 = getelementptr inbounds i32, i32* %out, i32 5
	store i32 %33, i32* %35
	%36 = getelementptr inbounds i32, i32* %x, i32 3
	%37 = load i32, i32* %36
	%38 = getelementptr inbounds i32, i32* %y, i32 3
	%39 = load i32, i32* %38
	%40 = zext i32 %37 to i64
	%41 = zext i32 %39 to i64
	%42 = mul i64 %40, %41
	%43 = trunc i64 %42 to i32
	%44 = lshr i64 %42, 32
	%45 = trunc i64 %44 to i32
	%46 = getelementptr inbounds i32, i32* %out, i32 6
	store i32 %43, i32* %46
	%47 = getelementptr inbounds i32, i32* %out, i32 7
	store i32 %45, i32* %47
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
