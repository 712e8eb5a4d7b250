; freeze and va_arg
define i32 @sum(i32 %n, ...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  %x = va_arg ptr %ap, i32
  %y = va_arg ptr %ap, double
  %fx = freeze i32 %x
  %fv = freeze <2 x i32> poison
  %fp = freeze ptr undef
  call void @llvm.va_end.p0(ptr %ap)
  ret i32 %fx
}

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
