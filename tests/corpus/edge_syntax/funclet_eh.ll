; funclet exception handling: catchswitch, catchpad, cleanuppad, "funclet" bundles with token operands
define void @weh() personality ptr @__CxxFrameHandler3 {
entry:
  invoke void @may_throw()
          to label %cont unwind label %dispatch

dispatch:
  %cs = catchswitch within none [label %handler] unwind label %cleanup

handler:
  %cp = catchpad within %cs [ptr null, i32 64, ptr null]
  call void @may_throw() [ "funclet"(token %cp) ]
  catchret from %cp to label %cont

cleanup:
  %cl = cleanuppad within none []
  call void @may_throw() [ "funclet"(token %cl) ]
  cleanupret from %cl unwind to caller

cont:
  ret void
}

declare void @may_throw()
declare i32 @__CxxFrameHandler3(...)
