; parameter/return/call-site attributes, calling conventions, inline asm dialects
%struct.big = type { [8 x i64] }

define x86_vectorcallcc <2 x double> @vc(<2 x double> inreg %a) {
  ret <2 x double> %a
}

define void @attrs(ptr sret(%struct.big) %r, ptr noalias nocapture noundef nonnull align 8 dereferenceable(64) %out, ptr byval(%struct.big) align 8 %in, i32 signext %s, i8 zeroext %z, ptr nofree readonly captures(address) %ro, i32 range(i32 0, 10) %rg, ptr dead_on_unwind writable initializes((0, 8)) %w) local_unnamed_addr #0 {
  %v = call <2 x double> @vc(<2 x double> inreg zeroinitializer) #1
  %x = call coldcc noundef i32 @cold(i32 noundef %s) nounwind
  %y = call addrspace(0) i32 (i32, ...) @vararg(i32 1, double 2.0, ptr %out)
  %z2 = call float asm sideeffect inteldialect "mov $0, $1", "=r,r"(float 1.0)
  ret void
}

declare coldcc i32 @cold(i32)
declare i32 @vararg(i32, ...)
declare ptr @my_calloc(i64, i64) #2

attributes #0 = { nounwind uwtable "frame-pointer"="all" "target-cpu"="x86-64" memory(argmem: readwrite, inaccessiblemem: read) vscale_range(1,16) }
attributes #2 = { allocsize(0, 1) }
attributes #1 = { builtin nobuiltin strictfp }
