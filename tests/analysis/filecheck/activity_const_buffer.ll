; An active value stored into a buffer passed as const, then read back into the result: the
; buffer has no shadow, so the derivative through it would be lost. Reported with both fixes.
; ANALYZE: activity f active,const ret
; ANALYZE(UNREAD): activity g active,const ret
; ANALYZE(LEAK): activity h dup,const

define double @f(double %x, ptr %buf) {
  %y = fmul double %x, %x, !dbg !10
  store double %y, ptr %buf, !dbg !10
  %z = load double, ptr %buf
  %r = fmul double %z, 2.0
  ret double %r
}

; Written but never read back: harmless, no error.
define double @g(double %x, ptr %buf) {
  %y = fmul double %x, %x
  store double %y, ptr %buf
  ret double %y
}

; A pointer into const memory stored into dup memory: its shadow would be needed.
define void @h(ptr %x, ptr %c) {
  store ptr %c, ptr %x
  ret void
}

!llvm.dbg.cu = !{!0}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "scratch.c", directory: "/src")
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 2, unit: !0)
!10 = !DILocation(line: 3, column: 12, scope: !5)

; CHECK-LABEL: @f [active, const] ret active
; CHECK: %z = load double, ptr %buf: active value, active instruction
; CHECK: error: `store double %y, ptr %buf` in @f at scratch.c:3:12: an active value is stored into memory of argument %buf, which is const {{.*}} Fix: pass %buf as enzyme_dup (Duplicated(buf, dbuf) from Python) with a shadow buffer

; UNREAD-LABEL: @g [active, const] ret active
; UNREAD: store double %y, ptr %buf: constant instruction
; UNREAD-NOT: error

; LEAK-LABEL: @h [dup, const]
; LEAK: store ptr %c, ptr %x: active instruction
; LEAK: error: `store ptr %c, ptr %x` in @h: a pointer into memory of argument %c is stored into active memory
