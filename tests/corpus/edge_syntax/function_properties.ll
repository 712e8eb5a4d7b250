; linkage, unnamed_addr, section, partition, align, addrspace on functions
define internal fastcc void @a() unnamed_addr section ".text.hot" partition "p" align 16 {
  ret void
}

define weak_odr hidden void @b() local_unnamed_addr addrspace(1) #0 {
  ret void
}

declare extern_weak dllimport void @c()

define private void @d() noinline optnone {
  ret void
}

attributes #0 = { alwaysinline "denormal-fp-math"="preserve-sign,preserve-sign" }
