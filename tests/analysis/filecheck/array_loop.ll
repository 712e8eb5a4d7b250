; Sum of squares over a double array: the variable index makes every element a double;
; the counter is an integer (constant), the accumulator is active.
; ANALYZE: types sumsq
; ANALYZE(ACT): activity sumsq dup,const ret
; ANALYZE(CONSTX): activity sumsq const,const ret
; ANALYZE(NORET): activity sumsq dup,const

define double @sumsq(ptr %x, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add nuw i64 %i, 1
  %n64 = zext i32 %n to i64
  %done = icmp eq i64 %i.next, %n64
  br i1 %done, label %exit, label %loop
exit:
  %r = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  ret double %r
}

; CHECK-LABEL: @sumsq
; CHECK-NEXT: %x: {[-1]:Pointer, [-1,-1]:Float@double}
; CHECK-NEXT: %n: {[-1]:Integer}
; CHECK: %i = phi i64 {{.*}}: {[-1]:Integer}
; CHECK: %p = getelementptr inbounds double, ptr %x, i64 %i: {[-1]:Pointer, [-1,-1]:Float@double}

; ACT-LABEL: @sumsq [dup, const] ret active
; ACT-NEXT: %x: active value
; ACT-NEXT: %n: constant value
; ACT: %i = phi i64 {{.*}}: constant value, constant instruction
; ACT-NEXT: %s = phi double {{.*}}: active value, active instruction
; ACT-NEXT: %p = getelementptr {{.*}}: active value, active instruction
; ACT-NEXT: %v = load double, ptr %p: active value, active instruction
; ACT-NEXT: %sq = fmul double %v, %v: active value, active instruction
; ACT-NEXT: %s.next = fadd double %s, %sq: active value, active instruction
; ACT-NEXT: %i.next = add nuw i64 %i, 1: constant value, constant instruction
; ACT: ret double %r: active instruction
; ACT-NOT: error

; CONSTX-LABEL: @sumsq [const, const] ret active
; CONSTX-NOT: active

; Nothing active flows out: the loads and arithmetic need no derivative, only the dup pointer has a shadow.
; NORET-LABEL: @sumsq [dup, const]
; NORET: %p = getelementptr {{.*}}: active value, active instruction
; NORET-NEXT: %v = load double, ptr %p: constant value, constant instruction
; NORET-NEXT: %sq = fmul double %v, %v: constant value, constant instruction
