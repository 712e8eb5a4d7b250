; memcpy moves the pointee types between source and destination (both ways).
; ANALYZE: types f
; ANALYZE(ACT): activity f dup ret

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @f(ptr %x) {
  %tmp = alloca [4 x i8], align 16
  %buf = alloca [32 x i8], align 16
  call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr %x, i64 32, i1 false)
  %p = getelementptr inbounds i8, ptr %buf, i64 16
  %v = load double, ptr %p
  %w = getelementptr inbounds double, ptr %x, i64 1
  %u = load double, ptr %w
  %r = fmul double %u, %v
  ret double %r
}

; CHECK-LABEL: @f
; CHECK-NEXT: %x: {[-1]:Pointer, [-1,8]:Float@double, [-1,16]:Float@double}
; CHECK: %buf = alloca [32 x i8], align 16: {[-1]:Pointer, [-1,8]:Float@double, [-1,16]:Float@double}

; The scratch copy holds active data, so it needs a shadow; the unused alloca does not.
; ACT: %tmp = alloca [4 x i8], align 16: constant value, constant instruction
; ACT-NEXT: %buf = alloca [32 x i8], align 16: active value, active instruction
; ACT-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr %x, i64 32, i1 false): active instruction
