; aliases (with linkage/visibility, to GEP constants) and ifuncs
@data = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@second = alias i32, getelementptr inbounds ([4 x i32], ptr @data, i64 0, i64 1)
@weak_alias = weak alias [4 x i32], ptr @data
@hidden_alias = hidden alias i32 (i32), ptr @impl
@private_alias = private alias i32 (i32), ptr @impl
@dispatch = ifunc i32 (i32), ptr @resolve
@local_ifunc = internal ifunc i32 (i32), ptr @resolve

define i32 @impl(i32 %x) {
  ret i32 %x
}

define ptr @resolve() {
  ret ptr @impl
}

define i32 @user(i32 %x) {
  %a = call i32 @dispatch(i32 %x)
  %b = call i32 @private_alias(i32 %a)
  %c = load i32, ptr @second
  %d = add i32 %b, %c
  ret i32 %d
}
