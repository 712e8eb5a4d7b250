; zeroinitializer, undef and poison in aggregates and vectors
@z = global { i32, [2 x i8], <2 x float> } zeroinitializer
@u = global { i32, i32 } undef
@p = global { i32, i32 } poison
@partial = global { i32, i32 } { i32 undef, i32 poison }

define <2 x i32> @f() {
  %a = insertelement <2 x i32> undef, i32 poison, i32 0
  %b = add <2 x i32> %a, <i32 poison, i32 1>
  ret <2 x i32> %b
}
