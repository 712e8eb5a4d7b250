; A pointer bumped by 8 around a loop walks an array of doubles: its pointee is "every offset",
; not a growing list of offsets.
; ANALYZE: types f

define double @f(ptr %begin, ptr %end) {
entry:
  br label %loop
loop:
  %p = phi ptr [ %begin, %entry ], [ %p.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %v = load double, ptr %p
  %s.next = fadd double %s, %v
  %p.next = getelementptr inbounds i8, ptr %p, i64 8
  %done = icmp eq ptr %p.next, %end
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; CHECK-LABEL: @f
; CHECK-NEXT: %begin: {[-1]:Pointer, [-1,-1]:Float@double}
; CHECK: %p.next = getelementptr inbounds i8, ptr %p, i64 8: {[-1]:Pointer, [-1,-1]:Float@double}
