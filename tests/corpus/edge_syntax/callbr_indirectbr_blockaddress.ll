; callbr (asm goto) as LLVM prints it, indirectbr, blockaddress constants
@targets = global [2 x ptr] [ptr blockaddress(@jump, %a), ptr blockaddress(@jump, %b)]

define i32 @jump(i32 %i) {
entry:
  %slot = getelementptr [2 x ptr], ptr @targets, i32 0, i32 %i
  %t = load ptr, ptr %slot
  indirectbr ptr %t, [label %a, label %b]

a:
  ret i32 1

b:
  ret i32 2
}

define i32 @asm_goto(i32 %x) {
entry:
  callbr void asm "testl $0, $0; jne ${1:l}", "r,!i,~{dirflag},~{fpsr},~{flags}"(i32 %x)
          to label %fallthrough [label %taken]

fallthrough:
  ret i32 0

taken:
  ret i32 1
}

define ptr @addr() {
  ret ptr blockaddress(@jump, %b)
}
