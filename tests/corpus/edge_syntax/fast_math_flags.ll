; fast-math flags on arithmetic, fcmp, select, calls, casts and phi
define double @fmf(double %a, double %b, float %c) {
  %1 = fadd fast double %a, %b
  %2 = fmul nnan ninf double %1, %a
  %3 = fdiv nsz arcp double %2, %b
  %4 = fsub contract afn reassoc double %3, 1.0
  %5 = fneg nnan double %4
  %6 = fcmp fast olt double %5, %a
  %7 = select nnan i1 %6, double %5, double %a
  %8 = call fast double @llvm.sqrt.f64(double %7)
  %9 = fpext nnan float %c to double
  %10 = frem ninf double %8, %9
  ret double %10
}

define double @phi_fmf(i1 %c, double %x) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %p = phi nnan nsz double [ %x, %entry ], [ 0.0, %a ]
  ret double %p
}

declare double @llvm.sqrt.f64(double)
