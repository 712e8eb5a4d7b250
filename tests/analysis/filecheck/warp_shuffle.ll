; CUDA moves a double between lanes as two i32 halves (trunc, lshr, shuffle, zext, shl, or,
; bitcast). Those integers carry float bits: they must stay active, or the other lane's
; contribution to the derivative would be dropped silently.
; ANALYZE: types f
; ANALYZE(ACT): activity f active ret

declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

define double @f(double %x) {
  %bits = bitcast double %x to i64
  %lo = trunc i64 %bits to i32
  %hi64 = lshr i64 %bits, 32
  %hi = trunc i64 %hi64 to i32
  %slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %lo, i32 16, i32 31)
  %shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %hi, i32 16, i32 31)
  %a = zext i32 %shi to i64
  %b = shl nuw i64 %a, 32
  %c = zext i32 %slo to i64
  %d = or disjoint i64 %b, %c
  %other = bitcast i64 %d to double
  %sum = fadd double %x, %other
  ret double %sum
}

; CHECK-LABEL: @f
; CHECK: %lo = trunc i64 %bits to i32: {[-1]:Anything}
; CHECK: %hi64 = lshr i64 %bits, 32: {[-1]:Anything}

; ACT-LABEL: @f [active] ret active
; ACT: %bits = bitcast double %x to i64: active value, active instruction
; ACT-NEXT: %lo = trunc i64 %bits to i32: active value, active instruction
; ACT-NEXT: %hi64 = lshr i64 %bits, 32: active value, active instruction
; ACT-NEXT: %hi = trunc i64 %hi64 to i32: active value, active instruction
; ACT-NEXT: %slo = call i32 @llvm.nvvm.shfl.sync.down.i32({{.*}}): active value, active instruction
; ACT-NEXT: %shi = call i32 @llvm.nvvm.shfl.sync.down.i32({{.*}}): active value, active instruction
; ACT-NEXT: %a = zext i32 %shi to i64: active value, active instruction
; ACT-NEXT: %b = shl nuw i64 %a, 32: active value, active instruction
; ACT-NEXT: %c = zext i32 %slo to i64: active value, active instruction
; ACT-NEXT: %d = or disjoint i64 %b, %c: active value, active instruction
; ACT-NEXT: %other = bitcast i64 %d to double: active value, active instruction
