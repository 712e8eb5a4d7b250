; intrinsics called without a declaration (LLVM declares them) and u0x/s0x literals as instruction operands
define i32 @f(i32 %x) {
  %a = add i32 %x, u0x10
  %b = add i32 %a, s0xF
  %w = add i32 %b, u0xFFFFFFFF
  %c = call i32 @llvm.smax.i32(i32 %a, i32 %w)
  %d = call double @llvm.sqrt.f64(double 4.0)
  %e = fptosi double %d to i32
  %r = add i32 %c, %e
  ret i32 %r
  uselistorder i32 %a, { 1, 0 }
}
