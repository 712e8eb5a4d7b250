; uselistorder directives (LLVM reads them; its printer omits them by default)
@g = global i32 0

define i32 @f(i32 %x) {
  %a = add i32 %x, 1
  %b = add i32 %x, 2
  %c = add i32 %x, 3
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
  uselistorder i32 %x, { 2, 0, 1 }
}

define i32 @h() {
  %1 = load i32, ptr @g
  %2 = load i32, ptr @g
  ret i32 %1
}

uselistorder ptr @g, { 1, 0 }
