; prefix data, prologue data, personality, gc strategies, invoke/landingpad/resume
%0 = type { ptr, i32 }

define void @with_prefix() prefix i32 123 {
  ret void
}

define void @with_prologue() prologue { i8, i8 } { i8 -21, i8 0 } {
  ret void
}

define void @with_all(ptr %p) gc "statepoint-example" prefix [2 x i8] c"\01\02" personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw()
          to label %ok unwind label %lp

ok:
  ret void

lp:
  %e = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %e
}

define void @shadow_stack() gc "shadow-stack" {
  ret void
}

declare void @may_throw()
declare i32 @__gxx_personality_v0(...)
