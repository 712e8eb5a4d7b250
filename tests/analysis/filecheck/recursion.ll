; A recursive walk down a linked list: the recursive call's result is typed by the function's
; own returns (a fixed point over the partial result), and the node layout repeats down the
; list up to the depth limit.
; ANALYZE: types last

define ptr @last(ptr %n) {
entry:
  %nextp = getelementptr inbounds i8, ptr %n, i64 8
  %next = load ptr, ptr %nextp
  %isnull = icmp eq ptr %next, null
  br i1 %isnull, label %done, label %rec
rec:
  %r = call ptr @last(ptr %next)
  br label %done
done:
  %res = phi ptr [ %n, %entry ], [ %r, %rec ]
  %v = load double, ptr %res
  ret ptr %res
}

; CHECK-LABEL: @last
; CHECK-NEXT: %n: {[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Pointer, [-1,8,0]:Float@double, [-1,8,8]:Pointer,
; CHECK: %r = call ptr @last(ptr %next): {[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Pointer, [-1,8,0]:Float@double,
; CHECK: return: {[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Pointer,
