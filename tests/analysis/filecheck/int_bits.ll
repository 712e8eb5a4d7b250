; An i64 that carries a double's bits (loaded from double memory, stored back) is Float, not
; Integer; an fptosi result is Integer and stops the derivative.
; ANALYZE: types f
; ANALYZE(ACT): activity f dup,dup,active ret

define double @f(ptr %src, ptr %dst, double %x) {
  %a = getelementptr inbounds double, ptr %src, i64 0
  %d = load double, ptr %a
  %bits = load i64, ptr %src
  store i64 %bits, ptr %dst
  %k = fptosi double %x to i64
  %kf = sitofp i64 %k to double
  %r = fmul double %d, %kf
  ret double %r
}

; CHECK-LABEL: @f
; CHECK-NEXT: %src: {[-1]:Pointer, [-1,0]:Float@double}
; CHECK-NEXT: %dst: {[-1]:Pointer, [-1,0]:Float@double}
; CHECK: %bits = load i64, ptr %src: {[-1]:Float@double}
; CHECK: %k = fptosi double %x to i64: {[-1]:Integer}

; ACT: %bits = load i64, ptr %src: active value, active instruction
; ACT-NEXT: store i64 %bits, ptr %dst: active instruction
; ACT-NEXT: %k = fptosi double %x to i64: constant value, constant instruction
; ACT-NEXT: %kf = sitofp i64 %k to double: constant value, constant instruction
; ACT-NEXT: %r = fmul double %d, %kf: active value, active instruction
