; A union read both as a double and as an integer counter: the analysis reports the conflict
; (naming the instruction) and treats the bytes as Anything.
; ANALYZE: types f

define double @f(ptr %u) {
  %d = load double, ptr %u
  %i = load i64, ptr %u
  %j = mul i64 %i, 3
  store i64 %j, ptr %u
  ret double %d
}

; CHECK-LABEL: @f
; CHECK: %u: {[-1]:Pointer, [-1,0]:Anything
; CHECK: conflict: type analysis: {{.*}} holds both Float@double and Integer at offset [-1,0] (found at `{{.*}}` in @f)
