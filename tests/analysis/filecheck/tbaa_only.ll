; Types that only TBAA tells: the loaded pointer points to doubles ("p1 double"), the i64 is a
; "long", the i32 an "int" — no arithmetic here says so.
; ANALYZE: types f

define ptr @f(ptr %pp, ptr %out) {
  %q = load ptr, ptr %pp, align 8, !tbaa !5
  %k = load i64, ptr %out, align 8, !tbaa !7
  %h = getelementptr inbounds i8, ptr %out, i64 8
  %j = load i32, ptr %h, align 4, !tbaa !9
  store i64 %k, ptr %h, align 8, !tbaa !7
  ret ptr %q
}

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"any pointer", !1, i64 0}
!3 = !{!"p1 double", !2, i64 0}
!5 = !{!3, !3, i64 0}
!6 = !{!"long", !1, i64 0}
!7 = !{!6, !6, i64 0}
!8 = !{!"int", !1, i64 0}
!9 = !{!8, !8, i64 0}

; CHECK-LABEL: @f
; CHECK-NEXT: %pp: {[-1]:Pointer, [-1,0]:Pointer, [-1,0,-1]:Float@double}
; CHECK-NEXT: %out: {[-1]:Pointer, [-1,0]:Integer, {{.*}}[-1,7]:Integer, [-1,8]:Integer, {{.*}}, [-1,15]:Integer}
; CHECK-NEXT: %q = load ptr, ptr %pp, align 8: {[-1]:Pointer, [-1,-1]:Float@double}
; CHECK-NEXT: %k = load i64, ptr %out, align 8: {[-1]:Integer}
; CHECK: %j = load i32, ptr %h, align 4: {[-1]:Integer}
; CHECK: return: {[-1]:Pointer, [-1,-1]:Float@double}
