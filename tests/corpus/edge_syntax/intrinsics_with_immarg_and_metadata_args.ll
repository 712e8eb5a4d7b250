; constrained FP intrinsics with metadata strings, immarg, read_register
define double @f(double %x, ptr %p) strictfp {
  %a = call double @llvm.experimental.constrained.fadd.f64(double %x, double 1.0, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p, ptr align 8 %p, i64 16, i1 false)
  %r = call i64 @llvm.read_register.i64(metadata !0)
  %al = alloca i64
  call void @llvm.lifetime.start.p0(ptr %al)
  ret double %a
}

declare double @llvm.experimental.constrained.fadd.f64(double, double, metadata, metadata)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg)
declare i64 @llvm.read_register.i64(metadata)
declare void @llvm.lifetime.start.p0(ptr)

!0 = !{!"rsp\00"}
