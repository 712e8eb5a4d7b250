target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare double @atan2(double)

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #0

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #1

define i32 @main(i64 %0, ptr %1, i1 %2) {
  %4 = alloca [4 x double], align 16
  br label %5

5:                                                ; preds = %10, %3
  %6 = getelementptr double, ptr %4, i64 %0
  store double 0.000000e+00, ptr %6, align 8
  %7 = call { double, double } @fwddiffe_f4(ptr nonnull %4)
  %8 = call { double, [2 x double] } @fwddiffe2_f4(ptr nonnull %4, ptr %1)
  br i1 %2, label %10, label %9

9:                                                ; preds = %5
  store i32 0, ptr %1, align 4
  br label %10

10:                                               ; preds = %9, %5
  %11 = extractvalue { double, double } %7, 1
  %12 = call i32 (ptr, ...) @printf(ptr noundef nonnull dereferenceable(1) null, ptr null, i32 0, ptr null, double %11, double 0.000000e+00)
  %13 = extractvalue { double, [2 x double] } %8, 1
  %14 = extractvalue [2 x double] %13, 1
  %15 = call i32 (ptr, ...) @printf(ptr noundef nonnull dereferenceable(1) null, ptr null, i32 0, ptr null, double %14, double 0.000000e+00)
  br label %5
}

declare i32 @printf(ptr, ...)

define { double, double } @fwddiffe_f4(ptr %0) {
  %2 = alloca [4 x i64], align 16
  %3 = alloca [4 x i64], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(32) %2, ptr noundef nonnull align 1 dereferenceable(32) %0, i64 32, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(32) %3, ptr noundef nonnull align 1 dereferenceable(32) %0, i64 32, i1 false)
  %4 = getelementptr inbounds nuw i8, ptr %2, i64 8
  %5 = load i64, ptr %4, align 8
  %6 = load i64, ptr %2, align 16
  %7 = or i64 %5, %6
  store i64 %7, ptr %0, align 16
  %8 = getelementptr inbounds nuw i8, ptr %2, i64 24
  %9 = load i64, ptr %8, align 8
  %10 = and i64 %9, 1
  %11 = getelementptr inbounds nuw i8, ptr %2, i64 16
  store i64 %10, ptr %11, align 16
  br label %12

12:                                               ; preds = %12, %1
  %13 = phi i64 [ %27, %12 ], [ 0, %1 ]
  %14 = phi double [ %26, %12 ], [ 0.000000e+00, %1 ]
  %15 = getelementptr double, ptr %3, i64 %13
  %16 = getelementptr double, ptr %2, i64 %13
  %17 = load double, ptr %16, align 8
  %18 = call double @atan2(double %17)
  %19 = load double, ptr %15, align 8
  %20 = fmul double %17, %19
  %21 = fadd double %20, 1.000000e+00
  %22 = fcmp oeq double %21, 0.000000e+00
  %23 = select i1 %22, double 0.000000e+00, double %19
  %24 = fcmp oeq double %23, 0.000000e+00
  %25 = select i1 %24, double 0.000000e+00, double %23
  %26 = fadd double %14, %25
  %27 = add i64 %13, 1
  %28 = icmp eq i64 %27, 4
  br i1 %28, label %29, label %12

29:                                               ; preds = %12
  %30 = insertvalue { double, double } zeroinitializer, double %26, 1
  ret { double, double } %30

; uselistorder directives
  uselistorder ptr %2, { 3, 0, 1, 4, 2, 5 }
}

define { double, [2 x double] } @fwddiffe2_f4(ptr %0, ptr %1) {
  %3 = alloca [4 x i64], align 16
  %4 = alloca [4 x i64], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(32) %3, ptr noundef nonnull align 1 dereferenceable(32) %0, i64 32, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 16 dereferenceable(32) %4, ptr noundef nonnull align 1 dereferenceable(32) %1, i64 32, i1 false)
  %5 = getelementptr inbounds nuw i8, ptr %3, i64 8
  %6 = load i64, ptr %5, align 8
  %7 = and i64 %6, -9223372036854775808
  %8 = or disjoint i64 %7, 1
  store i64 %8, ptr %3, align 16
  %9 = load i64, ptr %1, align 16
  %10 = load i64, ptr %0, align 16
  %11 = and i64 %10, 1
  %12 = xor i64 %9, %11
  store i64 %12, ptr %4, align 16
  %13 = getelementptr inbounds nuw i8, ptr %3, i64 24
  %14 = load i64, ptr %13, align 8
  %15 = and i64 %14, -9223372036854775808
  %16 = or disjoint i64 %15, 1
  %17 = getelementptr inbounds nuw i8, ptr %3, i64 16
  store i64 %16, ptr %17, align 16
  %18 = xor i64 %10, %9
  %19 = getelementptr inbounds nuw i8, ptr %4, i64 16
  store i64 %18, ptr %19, align 16
  br label %20

20:                                               ; preds = %20, %2
  %21 = phi i64 [ %41, %20 ], [ 0, %2 ]
  %22 = phi double [ %40, %20 ], [ 0.000000e+00, %2 ]
  %23 = getelementptr double, ptr %3, i64 %21
  %24 = load double, ptr %23, align 8
  %25 = getelementptr double, ptr %4, i64 %21
  %26 = load double, ptr %25, align 8
  %27 = fmul double %24, %26
  %28 = fadd double %27, 1.000000e+00
  %29 = tail call double @llvm.fmuladd.f64(double %24, double 0.000000e+00, double 0.000000e+00)
  %30 = fcmp olt double %24, 0.000000e+00
  %31 = select i1 %30, double %26, double 0.000000e+00
  %32 = fcmp oeq double %28, 0.000000e+00
  %33 = fdiv double 0.000000e+00, %29
  %34 = select i1 %32, double 0.000000e+00, double %33
  %35 = fcmp oeq double %34, 0.000000e+00
  %36 = select i1 %35, double 0.000000e+00, double %34
  %37 = fcmp oeq double %31, 0.000000e+00
  %38 = select i1 %37, double 0.000000e+00, double %31
  %39 = fadd double %36, %38
  %40 = fadd double %22, %39
  %41 = add i64 %21, 1
  %42 = icmp eq i64 %41, 4
  br i1 %42, label %43, label %20

43:                                               ; preds = %20
  %44 = insertvalue [2 x double] zeroinitializer, double %40, 1
  %45 = insertvalue { double, [2 x double] } zeroinitializer, [2 x double] %44, 1
  ret { double, [2 x double] } %45

; uselistorder directives
  uselistorder ptr %3, { 3, 0, 1, 4, 2, 5 }
  uselistorder ptr %4, { 1, 0, 2, 3 }
}

; uselistorder directives
uselistorder ptr @printf, { 1, 0 }

attributes #0 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
