; inalloca and addrspace allocas, vector and aggregate element instructions, volatile, switch
%pair = type { i32, float }

define void @misc(ptr %p, <4 x float> %v, %pair %agg, i32 %n) {
entry:
  %s = alloca inalloca i32, align 4
  %d = alloca i8, i32 %n, align 16, addrspace(5)
  %e = extractelement <4 x float> %v, i32 2
  %i = insertelement <4 x float> %v, float 1.0, i64 0
  %sh = shufflevector <4 x float> %v, <4 x float> %i, <8 x i32> <i32 0, i32 4, i32 1, i32 5, i32 poison, i32 6, i32 3, i32 7>
  %x = extractvalue %pair %agg, 1
  %y = insertvalue %pair %agg, i32 5, 0
  %vol = load volatile i32, ptr %p, align 1, !noundef !0
  store volatile i32 %vol, ptr %p, align 2
  %u = udiv i32 %vol, 7
  switch i32 %u, label %def [
    i32 0, label %c0
    i32 1, label %c1
  ]

c0:
  ret void

c1:
  br label %def

def:
  unreachable
}

declare i32 @pers(...)

!0 = !{}
