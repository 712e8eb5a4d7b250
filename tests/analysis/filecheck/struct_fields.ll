; A struct with int, double and pointer fields: each field's type lands at its byte offset.
; ANALYZE: types f

%S = type { i32, double, ptr, i64 }

define double @f(ptr %s) {
  %np = getelementptr inbounds %S, ptr %s, i32 0, i32 0
  %n = load i32, ptr %np
  %nf = sitofp i32 %n to double
  %xp = getelementptr inbounds %S, ptr %s, i32 0, i32 1
  %x = load double, ptr %xp
  %vp = getelementptr inbounds %S, ptr %s, i32 0, i32 2
  %v = load ptr, ptr %vp
  %v1 = getelementptr inbounds double, ptr %v, i64 1
  %y = load double, ptr %v1
  %a = fmul double %x, %y
  %r = fadd double %a, %nf
  ret double %r
}

; CHECK-LABEL: @f
; CHECK-NEXT: %s: {[-1]:Pointer, [-1,0]:Integer, [-1,1]:Integer, [-1,2]:Integer, [-1,3]:Integer, [-1,8]:Float@double, [-1,16]:Pointer, [-1,16,8]:Float@double}
; CHECK: %n = load i32, ptr %np: {[-1]:Integer}
; CHECK: %xp = getelementptr inbounds %S, ptr %s, i32 0, i32 1: {[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Pointer, [-1,8,8]:Float@double}
; CHECK: %v = load ptr, ptr %vp: {[-1]:Pointer, [-1,8]:Float@double}
; CHECK: return: {[-1]:Float@double}
; CHECK-NOT: conflict
