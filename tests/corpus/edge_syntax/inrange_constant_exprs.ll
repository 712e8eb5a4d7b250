; inrange GEPs, constant expressions over addresses, dso_local_equivalent, no_cfi
@vtable = constant { [4 x ptr] } { [4 x ptr] [ptr null, ptr null, ptr @f, ptr @g] }
@vptr = global ptr getelementptr inbounds inrange(-16, 16) ({ [4 x ptr] }, ptr @vtable, i32 0, i32 0, i32 2)
@arr = global [10 x i32] zeroinitializer
@diff = global i64 sub (i64 ptrtoint (ptr getelementptr ([10 x i32], ptr @arr, i64 0, i64 5) to i64), i64 ptrtoint (ptr @arr to i64))
@trunc = global i32 trunc (i64 ptrtoint (ptr @arr to i64) to i32)
@sum = global i64 add (i64 ptrtoint (ptr @arr to i64), i64 16)
@x = global i8 extractelement (<2 x i8> <i8 1, i8 2>, i32 1)
@nested = global { ptr, [2 x ptr] } { ptr getelementptr (i8, ptr @arr, i64 4), [2 x ptr] [ptr @f, ptr getelementptr inbounds nuw (i8, ptr @arr, i64 8)] }
@dso = global ptr dso_local_equivalent @f
@nocfi = global ptr no_cfi @g

define void @f() {
  ret void
}

define void @g() {
  ret void
}
