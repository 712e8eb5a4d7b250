; Defined callees are analysed with the caller; a call with constant arguments stays constant
; even when another call of the same function is active.
; ANALYZE: activity f active,dup,const ret

define internal double @sq(double %a) {
  %r = fmul double %a, %a
  ret double %r
}

define internal void @scale(ptr %p, double %k) {
  %v = load double, ptr %p
  %w = fmul double %v, %k
  store double %w, ptr %p
  ret void
}

declare double @llvm.sin.f64(double)
declare i32 @printf(ptr, ...)
@fmt = private constant [4 x i8] c"%g\0A\00"

define double @f(double %x, ptr %y, double %c) {
  %s = call double @sq(double %x)
  %t = call double @sq(double %c)
  call void @scale(ptr %y, double %c)
  %u = call double @llvm.sin.f64(double %s)
  %p = call i32 (ptr, ...) @printf(ptr @fmt, double %u)
  %v = fadd double %u, %t
  ret double %v
}

; CHECK-LABEL: @f [active, dup, const] ret active
; CHECK: %s = call double @sq(double %x): active value, active instruction
; CHECK-NEXT: %t = call double @sq(double %c): constant value, constant instruction
; CHECK-NEXT: call void @scale(ptr %y, double %c): active instruction
; CHECK-NEXT: %u = call double @llvm.sin.f64(double %s): active value, active instruction
; CHECK-NEXT: %p = call i32 (ptr, ...) @printf(ptr @fmt, double %u): constant value, constant instruction
