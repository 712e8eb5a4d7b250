; metadata operands of intrinsic calls (scopes, type ids)
declare void @llvm.experimental.noalias.scope.decl(metadata)
declare i1 @llvm.type.test(ptr, metadata)

define i1 @f(ptr %p) {
  call void @llvm.experimental.noalias.scope.decl(metadata !0)
  %t = call i1 @llvm.type.test(ptr %p, metadata !"_ZTS1A")
  ret i1 %t
}

!0 = !{!1}
!1 = distinct !{!1, !2, !"scope"}
!2 = distinct !{!2, !"domain"}
