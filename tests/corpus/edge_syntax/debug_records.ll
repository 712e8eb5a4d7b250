; #dbg_declare, #dbg_value (with DIArgList), #dbg_assign and #dbg_label records
define void @f(i32 %x, ptr %p) !dbg !5 {
entry:
  %a = alloca i32, align 4, !DIAssignID !13
    #dbg_declare(ptr %a, !10, !DIExpression(), !12)
    #dbg_value(i32 %x, !11, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !12)
    #dbg_assign(i32 %x, !10, !DIExpression(), !13, ptr %a, !DIExpression(), !12)
  store i32 %x, ptr %a, align 4, !dbg !12
    #dbg_value(!DIArgList(i32 %x, i32 %x), !11, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !12)
    #dbg_value(i32 poison, !11, !DIExpression(), !12)
  br label %next, !dbg !12

next:
    #dbg_label(!14, !12)
  ret void, !dbg !12
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand written", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false)
!1 = !DIFile(filename: "edge.c", directory: "/tmp")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !9)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !8}
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !{}
!10 = !DILocalVariable(name: "a", scope: !5, file: !1, line: 2, type: !8)
!11 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 1, type: !8)
!12 = !DILocation(line: 2, column: 3, scope: !5)
!13 = distinct !DIAssignID()
!14 = !DILabel(scope: !5, name: "next", file: !1, line: 3)
