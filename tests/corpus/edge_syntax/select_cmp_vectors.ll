; vector compares, selects and casts
define <4 x i32> @f(<4 x i32> %a, <4 x i32> %b, <4 x float> %x) {
  %c = icmp slt <4 x i32> %a, %b
  %d = fcmp ueq <4 x float> %x, zeroinitializer
  %e = and <4 x i1> %c, %d
  %s = select <4 x i1> %e, <4 x i32> %a, <4 x i32> %b
  %t = trunc <4 x i32> %s to <4 x i16>
  %bc = bitcast <4 x i16> %t to i64
  %bc2 = bitcast i64 %bc to <2 x float>
  ret <4 x i32> %s
}
