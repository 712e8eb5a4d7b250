; numbered (unnamed) arguments, blocks and values with an implicit entry label
define i32 @f(i32 %0, i1 %1) {
  br i1 %1, label %3, label %5

3:
  %4 = add i32 %0, 1
  br label %5

5:
  %6 = phi i32 [ %4, %3 ], [ %0, %2 ]
  ret i32 %6
}
