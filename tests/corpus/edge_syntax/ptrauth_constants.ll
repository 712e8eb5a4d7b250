; ptrauth constants
@f_ptr = global ptr ptrauth (ptr @f, i32 0)
@g_ptr = global ptr ptrauth (ptr @f, i32 2, i64 1234, ptr @f_ptr)

define void @f() {
  ret void
}
