; Memory: a stack slot holding a dup pointer needs a shadow (so does what it points to); an
; integer field store into a dup struct needs no derivative code; an active value stored into a
; global makes the global active.
; ANALYZE: activity slot dup,dup
; ANALYZE(INT): activity field dup,active
; ANALYZE(GLOBAL): activity glob active ret

@g = global double 0.0
@k = constant double 3.0

define void @slot(ptr %x, ptr %out) {
  %slot = alloca ptr
  %count = alloca i32
  store i32 0, ptr %count, !tbaa !3
  store ptr %x, ptr %slot
  %p = load ptr, ptr %slot
  %v = load double, ptr %p
  %w = fmul double %v, %v
  store double %w, ptr %out
  ret void
}

define void @field(ptr %s, double %x) {
  store i32 7, ptr %s, !tbaa !3
  %fp = getelementptr inbounds i8, ptr %s, i64 8
  %x2 = fmul double %x, %x
  store double %x2, ptr %fp
  ret void
}

define double @glob(double %x) {
  store double %x, ptr @g
  %a = load double, ptr @k
  %b = fmul double %a, %x
  ret double %b
}

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"int", !1, i64 0}
!3 = !{!2, !2, i64 0}

; CHECK-LABEL: @slot [dup, dup]
; CHECK-NEXT: %x: active value
; CHECK-NEXT: %out: active value
; CHECK-NEXT: %slot = alloca ptr: active value, active instruction
; CHECK-NEXT: %count = alloca i32: constant value, constant instruction
; CHECK-NEXT: store i32 0, ptr %count: constant instruction
; CHECK-NEXT: store ptr %x, ptr %slot: active instruction
; CHECK-NEXT: %p = load ptr, ptr %slot: active value, active instruction
; CHECK-NEXT: %v = load double, ptr %p: active value, active instruction

; INT-LABEL: @field [dup, active]
; INT: store i32 7, ptr %s: constant instruction
; INT: store double %x2, ptr %fp: active instruction

; GLOBAL-LABEL: @glob [active] ret active
; GLOBAL: store double %x, ptr @g: active instruction
; GLOBAL-NEXT: %a = load double, ptr @k: constant value, constant instruction
; GLOBAL: @g: active global
