; <vscale x N x T> vectors, splat constants, llvm.vscale
define <vscale x 4 x i32> @add(<vscale x 4 x i32> %a, <vscale x 4 x i32> %b) {
  %s = add <vscale x 4 x i32> %a, %b
  %z = insertelement <vscale x 4 x i32> poison, i32 7, i64 0
  %sp = shufflevector <vscale x 4 x i32> %z, <vscale x 4 x i32> poison, <vscale x 4 x i32> zeroinitializer
  %m = mul <vscale x 4 x i32> %s, %sp
  %k = mul <vscale x 4 x i32> %m, splat (i32 3)
  %n = call i64 @llvm.vscale.i64()
  ret <vscale x 4 x i32> %k
}

define <vscale x 2 x double> @load(ptr %p) {
  %v = load <vscale x 2 x double>, ptr %p
  %g = getelementptr <vscale x 2 x double>, ptr %p, i64 1
  ret <vscale x 2 x double> %v
}
