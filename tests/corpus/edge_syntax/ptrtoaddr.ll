; ptrtoaddr instruction and constant expression (LLVM 22)
@g = global i32 0
@addr = global i64 ptrtoaddr (ptr @g to i64)

define i64 @f(ptr %p) {
  %a = ptrtoaddr ptr %p to i64
  %b = ptrtoint ptr %p to i64
  %c = add i64 %a, %b
  ret i64 %c
}
