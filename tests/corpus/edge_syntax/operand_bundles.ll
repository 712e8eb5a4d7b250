; operand bundles: deopt, convergencectrl, assume bundles, unknown bundles
declare void @f(i32)
declare token @llvm.experimental.convergence.entry()
declare void @llvm.assume(i1)

define void @g(ptr %p, i32 %x) convergent {
  %t = call token @llvm.experimental.convergence.entry()
  call void @f(i32 %x) [ "deopt"(i32 %x, i64 42), "convergencectrl"(token %t) ]
  call void @f(i32 1) [ "deopt"(), "unknown-bundle"(ptr %p, i32 %x) ]
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16), "nonnull"(ptr %p) ]
  call void @f(i32 0) [ "gc-live"(ptr %p) ]
  ret void
}
