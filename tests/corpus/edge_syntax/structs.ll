; named, nested (forward-referenced), self-referential via ptr, packed <{}>, opaque, empty and quoted struct types
%struct.list = type { i32, ptr }
%struct.tree = type { %struct.tree.inner, [2 x ptr] }
%struct.tree.inner = type { double, <2 x float> }
%packed = type <{ i8, i32, i16 }>
%opaque.handle = type opaque
%empty = type {}
%"quoted type" = type { i64 }

@l = global %struct.list { i32 1, ptr @l }
@p = global %packed <{ i8 1, i32 2, i16 3 }>, align 1
@anon = global { i8, <{ i16, i32 }> } { i8 0, <{ i16, i32 }> <{ i16 4, i32 5 }> }
@h = external global %opaque.handle
@q = global %"quoted type" zeroinitializer

define i32 @walk(ptr %t) {
  %f = getelementptr inbounds %struct.tree, ptr %t, i64 0, i32 0, i32 1
  %v = load <2 x float>, ptr %f, align 8
  %s = getelementptr %packed, ptr @p, i32 0, i32 2
  %e = load %empty, ptr %t
  ret i32 0
}
