; vector GEPs, splat (...) constants, masked gather
@arr = global [8 x double] zeroinitializer
@splatted = global <4 x i32> splat (i32 7)
@fsplat = global <2 x double> splat (double 1.500000e+00)

define <4 x ptr> @vgep(ptr %base, <4 x i64> %idx, <4 x ptr> %bases) {
  %a = getelementptr double, ptr %base, <4 x i64> %idx
  %b = getelementptr inbounds i8, <4 x ptr> %bases, i64 8
  %c = getelementptr [8 x double], <4 x ptr> %bases, <4 x i64> zeroinitializer, <4 x i64> %idx
  %d = getelementptr i32, <4 x ptr> %bases, <4 x i64> splat (i64 2)
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %a, i32 8, <4 x i1> splat (i1 true), <4 x double> poison)
  %s = fadd <4 x double> %v, splat (double 1.0)
  ret <4 x ptr> %d
}

declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32 immarg, <4 x i1>, <4 x double>)
