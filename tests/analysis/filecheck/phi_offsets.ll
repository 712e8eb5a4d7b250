; Two fields of one object merged by a select: the offsets 8 and 16 never cancel around the
; select, so exact shifting would grow the pointee without end; the analysis settles at once.
; ANALYZE: types f

define double @f(ptr %s, i1 %c) {
  %a = getelementptr inbounds i8, ptr %s, i64 8
  %b = getelementptr inbounds i8, ptr %s, i64 16
  %p = select i1 %c, ptr %a, ptr %b
  %x = load double, ptr %p
  ret double %x
}

; CHECK-LABEL: @f
; CHECK-NEXT: %s: {[-1]:Pointer, [-1,-1]:Float@double}
; CHECK-NOT: [-1,24]
; CHECK: return: {[-1]:Float@double}
