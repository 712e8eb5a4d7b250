; musttail, notail, tail with calling conventions
define i32 @callee(i32 %x) {
  ret i32 %x
}

define i32 @must(i32 %x) {
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}

define i32 @no(i32 %x) {
  %a = notail call i32 @callee(i32 %x)
  %b = tail call fastcc i32 @fast(i32 %a)
  ret i32 %b
}

define fastcc i32 @fast(i32 %x) {
  %r = musttail call fastcc i32 @fast(i32 %x)
  ret i32 %r
}
