"""The tape: a growable LIFO stack of 8-byte slots shared by augmented and reverse sweeps.

The augmented (forward) sweep pushes what the reverse sweep needs; the
reverse sweep visits blocks in exactly the reverse order of the forward
trace and pops in reverse order, so one stack serves every control-flow
shape: data-dependent loops, early exits, recursion and calls (callees push
onto the caller's tape).  The tape is ``{ ptr base, i64 top, i64 capacity }``.
"""
from __future__ import annotations

from ..analysis.layout import DataLayout
from ..ir import Function, Module, Type
from .common import add_helper_functions

TAPE_TYPE_TEXT = "{ ptr, i64, i64 }"
_HELPERS = """
define internal ptr @__pyenzyme_tape_push(ptr %tape, i64 %size) alwaysinline {
entry:
  %topp = getelementptr inbounds { ptr, i64, i64 }, ptr %tape, i64 0, i32 1
  %capp = getelementptr inbounds { ptr, i64, i64 }, ptr %tape, i64 0, i32 2
  %top = load i64, ptr %topp, align 8
  %cap = load i64, ptr %capp, align 8
  %newtop = add i64 %top, %size
  %full = icmp ugt i64 %newtop, %cap
  br i1 %full, label %grow, label %store, !prof !{!"branch_weights", i32 1, i32 2000}
grow:
  %base0 = load ptr, ptr %tape, align 8
  %twice = shl i64 %cap, 1
  %big = icmp ugt i64 %twice, 4096
  %cap1 = select i1 %big, i64 %twice, i64 4096
  %enough = icmp ugt i64 %cap1, %newtop
  %cap2 = select i1 %enough, i64 %cap1, i64 %newtop
  %nb = call ptr @realloc(ptr %base0, i64 %cap2)
  %failed = icmp eq ptr %nb, null
  br i1 %failed, label %oom, label %grown
oom:
  call void @abort()
  unreachable
grown:
  store ptr %nb, ptr %tape, align 8
  store i64 %cap2, ptr %capp, align 8
  br label %store
store:
  %base = load ptr, ptr %tape, align 8
  store i64 %newtop, ptr %topp, align 8
  %slot = getelementptr inbounds i8, ptr %base, i64 %top
  ret ptr %slot
}

define internal ptr @__pyenzyme_tape_pop(ptr %tape, i64 %size) alwaysinline {
entry:
  %topp = getelementptr inbounds { ptr, i64, i64 }, ptr %tape, i64 0, i32 1
  %top = load i64, ptr %topp, align 8
  %newtop = sub i64 %top, %size
  store i64 %newtop, ptr %topp, align 8
  %base = load ptr, ptr %tape, align 8
  %slot = getelementptr inbounds i8, ptr %base, i64 %newtop
  ret ptr %slot
}
"""


def tape_functions(module: Module) -> tuple[Function, Function]:
    """The push and pop helpers, added to ``module`` on first use."""
    if module.get_function("__pyenzyme_tape_push") is None:
        add_helper_functions(module, "declare ptr @realloc(ptr, i64)\ndeclare void @abort()\n" + _HELPERS)
    push = module.get_function("__pyenzyme_tape_push")
    pop = module.get_function("__pyenzyme_tape_pop")
    assert push is not None and pop is not None
    return push, pop


def slot_size(t: Type, layout: DataLayout) -> int:
    """Bytes a value of type ``t`` occupies on the tape: its allocation size, rounded up to 8."""
    return (layout.alloc_size(t) + 7) // 8 * 8
