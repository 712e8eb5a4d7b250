; Negation, fabs and copysign written on the bits of doubles loaded as i64 (memcpy into a
; uint64_t): the float made from the result types the loaded integers as Float too, through
; the sign-bit masks, so the engine does not take those loads for integers.  A float made by
; masking other bits (the low word) came from float data too: the engine refuses that mask.
; ANALYZE: types f

define double @f(ptr %p) {
  %a = load i64, ptr %p
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %b = load i64, ptr %q
  %r = getelementptr inbounds i8, ptr %p, i64 16
  %c = load i64, ptr %r
  %neg = xor i64 %a, -9223372036854775808
  %mag = and i64 %a, 9223372036854775807
  %sgn = and i64 %b, -9223372036854775808
  %cs = or i64 %mag, %sgn
  %low = and i64 %c, -4294967296
  %x = bitcast i64 %neg to double
  %y = bitcast i64 %cs to double
  %z = bitcast i64 %low to double
  %s = fadd double %x, %y
  %t = fadd double %s, %z
  ret double %t
}

; CHECK-LABEL: @f
; CHECK-NEXT: %p: {[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Float@double, [-1,16]:Float@double}
; CHECK: %a = load i64, ptr %p: {[-1]:Float@double}
; CHECK: %b = load i64, ptr %q: {[-1]:Float@double}
; CHECK: %c = load i64, ptr %r: {[-1]:Float@double}
; CHECK: %sgn = and i64 %b, -9223372036854775808: {[-1]:Float@double}
; CHECK: %low = and i64 %c, -4294967296: {[-1]:Float@double}

; The result of copysign or a sign flip by another value's sign, both operands non-constant, holds the
; magnitude source's float bits: typed forwards even though nothing after it says so (a helper returning the
; bits as an integer; the caller made them into a double).
; ANALYZE(FWD): types g

define i64 @g(ptr %p) {
  %d = load double, ptr %p
  %q = getelementptr inbounds i8, ptr %p, i64 8
  %e = load double, ptr %q
  %a = bitcast double %d to i64
  %b = bitcast double %e to i64
  %mag = and i64 %a, 9223372036854775807
  %sgn = and i64 %b, -9223372036854775808
  %cs = or i64 %mag, %sgn
  %flip = xor i64 %cs, %sgn
  ret i64 %flip
}

; FWD-LABEL: @g
; FWD: %cs = or i64 %mag, %sgn: {[-1]:Float@double}
; FWD: %flip = xor i64 %cs, %sgn: {[-1]:Float@double}
; FWD: return: {[-1]:Float@double}
