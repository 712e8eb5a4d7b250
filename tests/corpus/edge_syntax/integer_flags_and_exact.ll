; nuw/nsw/exact/disjoint/nneg/samesign flags and GEP nuw/nusw
define i32 @flags(i32 %a, i32 %b, i64 %w, ptr %p) {
  %1 = add nuw nsw i32 %a, %b
  %2 = sub nsw i32 %1, 3
  %3 = mul nuw i32 %2, %b
  %4 = shl nuw nsw i32 %3, 2
  %5 = udiv exact i32 %4, 4
  %6 = sdiv exact i32 %5, 2
  %7 = lshr exact i32 %6, 1
  %8 = ashr exact i32 %7, 1
  %9 = or disjoint i32 %8, 256
  %10 = trunc nuw nsw i64 %w to i32
  %11 = zext nneg i32 %10 to i64
  %12 = icmp samesign ult i32 %9, %10
  %13 = uitofp nneg i32 %9 to double
  %14 = getelementptr inbounds nuw i8, ptr %p, i64 %11
  %15 = getelementptr nusw i8, ptr %p, i64 %11
  ret i32 %9
}
