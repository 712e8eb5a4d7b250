; load/store atomic, cmpxchg weak, atomicrmw (fadd, fmax, uinc_wrap, usub_sat...), fences with syncscope
@g = global i64 0
@f = global double 0.0

define i64 @atomics(ptr %p, i64 %v) {
  %a = load atomic i64, ptr %p seq_cst, align 8
  %b = load atomic volatile i32, ptr %p syncscope("singlethread") acquire, align 4
  store atomic i64 %v, ptr @g release, align 8
  store atomic volatile i64 %v, ptr @g syncscope("agent") monotonic, align 8
  %c = cmpxchg ptr %p, i64 %a, i64 %v acq_rel monotonic
  %d = cmpxchg weak volatile ptr %p, i64 %a, i64 %v syncscope("singlethread") seq_cst acquire, align 16
  %e = extractvalue { i64, i1 } %d, 0
  %r1 = atomicrmw add ptr %p, i64 1 monotonic
  %r2 = atomicrmw volatile xchg ptr %p, i64 %v syncscope("singlethread") seq_cst, align 8
  %r3 = atomicrmw fadd ptr @f, double 1.0 seq_cst
  %r4 = atomicrmw fmax ptr @f, double 2.0 acquire
  %r5 = atomicrmw umin ptr %p, i64 3 release
  %r6 = atomicrmw uinc_wrap ptr %p, i64 9 monotonic
  %r7 = atomicrmw nand ptr %p, i64 5 acq_rel
  %r8 = atomicrmw fminimum ptr @f, double 0.5 monotonic
  %r9 = atomicrmw usub_sat ptr %p, i64 1 monotonic
  fence acquire
  fence syncscope("singlethread") seq_cst
  fence syncscope("workgroup") release
  ret i64 %e
}
