; thread_local models and llvm.threadlocal.address
@tls1 = thread_local global i32 0
@tls2 = thread_local(localdynamic) global i32 1
@tls3 = thread_local(initialexec) global i32 2
@tls4 = thread_local(localexec) global i32 3
@tls5 = internal thread_local unnamed_addr global [2 x i64] zeroinitializer

define ptr @addr() {
  %p = call ptr @llvm.threadlocal.address.p0(ptr @tls2)
  %v = load i32, ptr @tls1
  ret ptr %p
}
