; metadata attached to globals, functions and instructions; named metadata; escaped strings
@g = global i32 0, !type !0, !my.global !1

define i32 @f(ptr %p) !prof !2 !my.fn !3 {
  %v = load i32, ptr %p, align 4, !tbaa !4, !range !8, !noundef !9, !my.inst !1
  %c = icmp sgt i32 %v, 0
  br i1 %c, label %a, label %b, !prof !10

a:
  store i32 %v, ptr @g, !nontemporal !11
  br label %b, !llvm.loop !12

b:
  %r = call i32 @h(i32 %v), !srcloc !14, !annotation !15
  ret i32 %r
}

declare i32 @h(i32)

!llvm.module.flags = !{!16}
!named.list = !{!0, !1, !17}

!0 = !{i64 0, !"typeid"}
!1 = !{!"string with \22quotes\22 and \5C backslash"}
!2 = !{!"function_entry_count", i64 100}
!3 = distinct !{}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C/C++ TBAA"}
!8 = !{i32 0, i32 10}
!9 = !{}
!10 = !{!"branch_weights", i32 90, i32 10}
!11 = !{i32 1}
!12 = distinct !{!12, !13}
!13 = !{!"llvm.loop.mustprogress"}
!14 = !{i64 12345}
!15 = !{!"auto-init"}
!16 = !{i32 1, !"wchar_size", i32 4}
!17 = !{ptr @g, i32 5, !DIExpression(), null, float 1.5}
