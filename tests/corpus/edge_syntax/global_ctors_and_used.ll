; llvm.global_ctors, llvm.used, llvm.compiler.used
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
@llvm.used = appending global [1 x ptr] [ptr @init], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @x], section "llvm.metadata"
@x = internal global i32 0

define internal void @init() {
  store i32 1, ptr @x
  ret void
}
