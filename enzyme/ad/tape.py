"""The tape: a growable LIFO stack of 8-byte slots shared by augmented and reverse sweeps.

The augmented (forward) sweep pushes what the reverse sweep needs; the
reverse sweep visits blocks in exactly the reverse order of the forward
trace and pops in reverse order, so one stack serves every control-flow
shape: data-dependent loops, early exits, recursion and calls (callees push
onto the caller's tape).  The stack is ``{ ptr base, i64 top, i64 capacity }``.

A second stack of the same shape follows it: the blocks the program freed.
The reverse sweep still reads them (and their shadows) after the point where
the program freed them, back to where they were allocated -- possibly in
another function, a recursion level up -- so the augmented sweep records
them instead, and ``release_tape`` frees them once the whole reverse sweep
is done.

The values stack's memory outlives the call: ``release_tape`` parks it in a
module-wide spare slot (one block, at most ``_SPARE_LIMIT`` bytes, its capacity
in its first 8 bytes) and the next top-level call takes it back
(``reuse_tape``), so a gradient evaluated again and again neither grows its
tape through a dozen reallocs nor faults in fresh pages each time (half of
GMM's gradient time).  Derivatives of code that holds a tape (nested
differentiation) drop the ``reuse_tape`` call (``CallKind.DROPPED``) and see
the parking as a ``free`` (rules/memory.py): their tape starts empty and grows
by realloc, which they know how to differentiate.
"""
from __future__ import annotations

import os

from ..analysis.layout import DataLayout
from ..ir import ArrayType, Function, Module, StructType, Type, Value
from ..ir.builder import Builder, const_int
from ..ir.splice import add_helper_functions
from ..ir.types import I8, I64, PTR
from .device import amdgpu, device_paths

TAPE_PUSH = "__pyenzyme_tape_push"
TAPE_REUSE = "__pyenzyme_tape_reuse"
_SPARE_LIMIT = 1 << 28  # a larger tape is freed, not kept for the next call
#: The values stack, then the stack of deferred frees.
TAPE_STRUCT = StructType((PTR, I64, I64, PTR, I64, I64))
_DEFERRED_FREES = 24  # byte offset of the second stack (the helpers' IR spells it out too)
#: With PYENZYME_TAPE_STATS=1 at build time, every push adds its size to ``__pyenzyme_tape_bytes`` (a weak
#: global a program may define to read it): a debugging and benchmarking aid, off by default.
_COUNT_BYTES = """  %counted = load i64, ptr @__pyenzyme_tape_bytes, align 8
  %counted1 = add i64 %counted, %size
  store i64 %counted1, ptr @__pyenzyme_tape_bytes, align 8
"""
_HELPERS = """
define internal ptr @__pyenzyme_tape_push(ptr %tape, i64 %size) alwaysinline {
entry:
  %topp = getelementptr inbounds { ptr, i64, i64 }, ptr %tape, i64 0, i32 1
  %capp = getelementptr inbounds { ptr, i64, i64 }, ptr %tape, i64 0, i32 2
  %top = load i64, ptr %topp, align 8
  %cap = load i64, ptr %capp, align 8
  %newtop = add i64 %top, %size
{count}  %full = icmp ugt i64 %newtop, %cap
  br i1 %full, label %grow, label %store, !prof !{!"branch_weights", i32 1, i32 2000}
grow:
  %base0 = load ptr, ptr %tape, align 8
  %twice = shl i64 %cap, 1
  %big = icmp ugt i64 %twice, {initial}
  %cap1 = select i1 %big, i64 %twice, i64 {initial}
  %enough = icmp ugt i64 %cap1, %newtop
  %cap2 = select i1 %enough, i64 %cap1, i64 %newtop
{grow}
  store ptr %nb, ptr %tape, align 8
  store i64 %cap2, ptr %capp, align 8
  br label %store
store:
  %base = load ptr, ptr %tape, align 8
  store i64 %newtop, ptr %topp, align 8
  %slot = getelementptr inbounds i8, ptr %base, i64 %top
  ret ptr %slot
}

define internal void @__pyenzyme_tape_release(ptr %tape) {
entry:
  %fp = getelementptr inbounds i8, ptr %tape, i64 24
  %fbase = load ptr, ptr %fp, align 8
  %ftopp = getelementptr inbounds i8, ptr %tape, i64 32
  %ftop = load i64, ptr %ftopp, align 8
  %n = lshr i64 %ftop, 3
  %any = icmp ne i64 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %slot = getelementptr inbounds ptr, ptr %fbase, i64 %i
  %block = load ptr, ptr %slot, align 8
  call void @free(ptr %block)
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  call void @free(ptr %fbase)
  %base = load ptr, ptr %tape, align 8
  %capp = getelementptr inbounds i8, ptr %tape, i64 16
  %cap = load i64, ptr %capp, align 8
  call void @__pyenzyme_tape_park(ptr %base, i64 %cap)
  ret void
}

define internal void @__pyenzyme_tape_park(ptr %block, i64 %cap) {
entry:
  %none = icmp eq ptr %block, null
  %huge = icmp ugt i64 %cap, {limit}
  %drop = or i1 %none, %huge
  br i1 %drop, label %free, label %park
park:
  store i64 %cap, ptr %block, align 8
  %swap = cmpxchg ptr @__pyenzyme_spare_tape, ptr null, ptr %block acq_rel monotonic
  %parked = extractvalue { ptr, i1 } %swap, 1
  br i1 %parked, label %done, label %free
free:
  call void @free(ptr %block)
  br label %done
done:
  ret void
}

define internal void @__pyenzyme_tape_reuse(ptr %tape) {
entry:
  %spare = atomicrmw xchg ptr @__pyenzyme_spare_tape, ptr null acquire
  %none = icmp eq ptr %spare, null
  br i1 %none, label %done, label %take
take:
  %cap = load i64, ptr %spare, align 8
  store ptr %spare, ptr %tape, align 8
  %capp = getelementptr inbounds i8, ptr %tape, i64 16
  store i64 %cap, ptr %capp, align 8
  br label %done
done:
  ret void
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


# Host code grows the tape with realloc and aborts when memory runs out.
_HOST_GROW = """  %nb = call ptr @realloc(ptr %base0, i64 %cap2)
  %failed = icmp eq ptr %nb, null
  br i1 %failed, label %oom, label %grown
oom:
  call void @abort()
  unreachable
grown:"""
# Device code (device.py) has no realloc: a new block, the old contents copied, the old block freed; a trap
# when the device heap (cudaLimitMallocHeapSize) is exhausted.
_DEVICE_GROW = """  %nb = call ptr @malloc(i64 %cap2)
  %failed = icmp eq ptr %nb, null
  br i1 %failed, label %oom, label %grown
oom:
  call void @llvm.trap()
  unreachable
grown:
  call void @llvm.memcpy.p0.p0.i64(ptr %nb, ptr %base0, i64 %top, i1 false)
  call void @__pyenzyme_tape_free_block(ptr %base0, i64 %cap)"""
# AMDGPU code has no device malloc pyenzyme can call: a tape that outgrows its stack buffer stops the kernel.
_AMDGPU_GROW = """  br label %oom
oom:
  call void @llvm.trap()
  unreachable
grown:
  %nb = getelementptr i8, ptr %base0, i64 %cap2"""
# ... and no spare block kept between calls: one module-wide slot would be shared by every thread.
_DEVICE_PARK = """define internal void @__pyenzyme_tape_park(ptr %block, i64 %cap) alwaysinline {
entry:
  call void @__pyenzyme_tape_free_block(ptr %block, i64 %cap)
  ret void
}"""
# A tape's block in device code: the stack buffer (capacity DEVICE_STACK_TAPE: nothing to free), a block of its
# own (even capacity: free it), or a warp's shared block (odd capacity, _NVPTX_RESERVE: the pointer to the shared
# block is in the 8 bytes before it, whose first 4 count the lanes still holding a part; the last one frees it).
_FREE_BLOCK = """
define internal void @__pyenzyme_tape_free_block(ptr %block, i64 %cap) alwaysinline {
entry:
  %onstack = icmp eq i64 %cap, {stack}
  br i1 %onstack, label %done, label %heap
heap:
  %odd = and i64 %cap, 1
  %shared = icmp ne i64 %odd, 0
  br i1 %shared, label %part, label %own
own:
  call void @__pyenzyme_free_nonnull(ptr %block)
  br label %done
part:
  %headp = getelementptr inbounds i8, ptr %block, i64 -8
  %head = load ptr, ptr %headp, align 8
  %left = atomicrmw sub ptr %head, i32 1 acq_rel, align 4
  %last = icmp eq i32 %left, 1
  br i1 %last, label %whole, label %done
whole:
  call void @free(ptr %head)
  br label %done
done:
  ret void
}
"""
# Counted loops in NVPTX code make room for all their iterations at once (loop_plans.reserve_loop_tapes), and
# the threads of a warp that arrive together share one malloc: device malloc serializes, so one call per warp
# instead of one per thread.  Each lane whose tape lacks room takes a part of ``top + size`` bytes (rounded to
# 8) after an 8-byte pointer to the block, copies its tape there and frees its old block; the block starts with
# the count of lanes holding a part.  The capacity of a part is odd (its size + 1): see _FREE_BLOCK.  A part
# has _RESERVE_SLACK bytes to spare, for what the code after the loop pushes (its exits' invariants, say):
# without them each thread would grow its tape once more, alone.  A block is 64 KiB at least: CUDA's malloc
# took 2 to 4 times longer for smaller blocks (1 to 40 KiB) on an H200.
_NVPTX_RESERVE = """
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.cttz.i32(i32, i1)

define internal void @__pyenzyme_tape_reserve(ptr %tape, i64 %size) {
entry:
  %topp = getelementptr inbounds i8, ptr %tape, i64 8
  %capp = getelementptr inbounds i8, ptr %tape, i64 16
  %top = load i64, ptr %topp, align 8
  %cap = load i64, ptr %capp, align 8
  %need = add i64 %top, %size
  %roomy = add i64 %need, {slack}
  %need7 = add i64 %roomy, 7
  %need8 = and i64 %need7, -8
  %full = icmp ugt i64 %need, %cap
  %want = select i1 %full, i64 %need8, i64 0
  %mask = call i32 @llvm.nvvm.activemask()
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %leader = call i32 @llvm.cttz.i32(i32 %mask, i1 true)
  %wlo = trunc i64 %want to i32
  %whi64 = lshr i64 %want, 32
  %whi = trunc i64 %whi64 to i32
  br label %sum
sum:
  %j = phi i32 [ 0, %entry ], [ %j1, %sum ]
  %total = phi i64 [ 0, %entry ], [ %total1, %sum ]
  %before = phi i64 [ 0, %entry ], [ %before1, %sum ]
  %parts = phi i32 [ 0, %entry ], [ %parts1, %sum ]
  %lo = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %wlo, i32 %j, i32 31)
  %hi = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %whi, i32 %j, i32 31)
  %lo64 = zext i32 %lo to i64
  %hi64 = zext i32 %hi to i64
  %hish = shl i64 %hi64, 32
  %w = or i64 %hish, %lo64
  %bit = shl i32 1, %j
  %inmask = and i32 %mask, %bit
  %member = icmp ne i32 %inmask, 0
  %asks = icmp ne i64 %w, 0
  %counts = and i1 %member, %asks
  %w8 = add i64 %w, 8
  %add = select i1 %counts, i64 %w8, i64 0
  %total1 = add i64 %total, %add
  %earlier = icmp ult i32 %j, %lane
  %addb = select i1 %earlier, i64 %add, i64 0
  %before1 = add i64 %before, %addb
  %one = zext i1 %counts to i32
  %parts1 = add i32 %parts, %one
  %j1 = add i32 %j, 1
  %more = icmp ult i32 %j1, 32
  br i1 %more, label %sum, label %summed
summed:
  %none = icmp eq i64 %total1, 0
  br i1 %none, label %done, label %alloc
alloc:
  %isleader = icmp eq i32 %lane, %leader
  br i1 %isleader, label %malloc, label %share
malloc:
  %bytes0 = add i64 %total1, 8
  %small = icmp ult i64 %bytes0, 65536
  %bytes = select i1 %small, i64 65536, i64 %bytes0
  %nb = call ptr @malloc(i64 %bytes)
  %failed = icmp eq ptr %nb, null
  br i1 %failed, label %oom, label %count
oom:
  call void @llvm.trap()
  unreachable
count:
  store i32 %parts1, ptr %nb, align 8
  br label %share
share:
  %block = phi ptr [ null, %alloc ], [ %nb, %count ]
  %bits = ptrtoint ptr %block to i64
  %blo = trunc i64 %bits to i32
  %bhi64 = lshr i64 %bits, 32
  %bhi = trunc i64 %bhi64 to i32
  %slo = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %blo, i32 %leader, i32 31)
  %shi = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %mask, i32 %bhi, i32 %leader, i32 31)
  %slo64 = zext i32 %slo to i64
  %shi64 = zext i32 %shi to i64
  %shish = shl i64 %shi64, 32
  %sbits = or i64 %shish, %slo64
  %shared = inttoptr i64 %sbits to ptr
  br i1 %full, label %move, label %done
move:
  %off = add i64 %before1, 8
  %headp = getelementptr inbounds i8, ptr %shared, i64 %off
  store ptr %shared, ptr %headp, align 8
  %part = getelementptr inbounds i8, ptr %headp, i64 8
  %base = load ptr, ptr %tape, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr %part, ptr %base, i64 %top, i1 false)
  call void @__pyenzyme_tape_free_block(ptr %base, i64 %cap)
  store ptr %part, ptr %tape, align 8
  %odd = or i64 %need8, 1
  store i64 %odd, ptr %capp, align 8
  br label %done
done:
  ret void
}
"""
_FREE_NONNULL = """
define internal void @__pyenzyme_free_nonnull(ptr %block) alwaysinline {
entry:
  %none = icmp eq ptr %block, null
  br i1 %none, label %done, label %free
free:
  call void @free(ptr %block)
  br label %done
done:
  ret void
}
"""
_DEVICE_REUSE = """define internal void @__pyenzyme_tape_reuse(ptr %tape) {
entry:
  ret void
}"""
_DEVICE_DECLARATIONS = ("declare ptr @malloc(i64)\ndeclare void @free(ptr)\ndeclare void @llvm.trap()\n"
                        "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n")
_DEVICE_INITIAL_CAPACITY = 256  # bytes: thousands of threads share the device heap
# A top-level derivative in device code starts its tape in a buffer of this many bytes on the thread's stack
# (local memory) and moves to the heap only when it outgrows it.  Heap blocks are never this size (they start
# at _DEVICE_INITIAL_CAPACITY), so the capacity tells which kind a tape's block is.
DEVICE_STACK_TAPE = 192
#: Counted loops in NVPTX code reserve their tape before they start, up to this many bytes (loop_plans.py),
#: and this many more (_NVPTX_RESERVE).
DEVICE_RESERVE_LIMIT = 1 << 30
_RESERVE_SLACK = 512


def _device_helpers(text: str) -> str:
    """The helpers with the device park and reuse (see _DEVICE_PARK), release inlined: a tape nothing was
    pushed on then leaves no call of free (AMDGPU code objects have none)."""
    text = text.replace("define internal void @__pyenzyme_tape_release(ptr %tape) {",
                        "define internal void @__pyenzyme_tape_release(ptr %tape) alwaysinline {")
    # GPU targets do not know free(NULL) does nothing: test first, so an unused tape calls nothing.
    text = text.replace("call void @free(", "call void @__pyenzyme_free_nonnull(") + _FREE_NONNULL + _FREE_BLOCK
    for name, replacement in (("__pyenzyme_tape_park", _DEVICE_PARK), ("__pyenzyme_tape_reuse", _DEVICE_REUSE)):
        start = text.index(f"define internal void @{name}(")
        end = text.index("\n}\n", start) + 2
        text = text[:start] + replacement + text[end:]
    return text.replace("{stack}", str(DEVICE_STACK_TAPE))


def tape_functions(module: Module) -> tuple[Function, Function]:
    """The push and pop helpers, added to ``module`` on first use."""
    if module.get_function(TAPE_PUSH) is None:
        counting = os.environ.get("PYENZYME_TAPE_STATS") == "1"
        counter = "@__pyenzyme_tape_bytes = weak global i64 0\n" if counting else ""
        helpers = _HELPERS.replace("{count}", _COUNT_BYTES if counting else "").replace("{limit}", str(_SPARE_LIMIT))
        if device_paths(module):
            grow = _AMDGPU_GROW if amdgpu(module) else _DEVICE_GROW
            helpers = _device_helpers(helpers.replace("{grow}", grow)
                                      .replace("{initial}", str(_DEVICE_INITIAL_CAPACITY)))
            if _nvptx(module):
                helpers += _NVPTX_RESERVE.replace("{slack}", str(_RESERVE_SLACK))
            add_helper_functions(module, _DEVICE_DECLARATIONS + counter + helpers)
        else:
            add_helper_functions(module, "declare ptr @realloc(ptr, i64)\ndeclare void @abort()\ndeclare void @free(ptr)\n"
                                 "@__pyenzyme_spare_tape = internal global ptr null\n" + counter
                                 + helpers.replace("{grow}", _HOST_GROW).replace("{initial}", "4096"))
    push = module.get_function(TAPE_PUSH)
    pop = module.get_function("__pyenzyme_tape_pop")
    assert push is not None and pop is not None
    return push, pop


def _nvptx(module: Module) -> bool:
    return (module.triple or "").startswith("nvptx")


def reserve_tape(module: Module, b: Builder, tape: Value, size: Value) -> None:
    """Make room for ``size`` more bytes on ``tape`` (a capacity hint: device code, loop_plans.py)."""
    push, pop = tape_functions(module)
    reserve = module.get_function("__pyenzyme_tape_reserve")
    if reserve is not None:
        b.call(reserve, [tape, size])
    else:  # grow as a push of that size would, and give the bytes back
        b.call(push, [tape, size])
        b.call(pop, [tape, size])


def slot_size(t: Type, layout: DataLayout) -> int:
    """Bytes a value of type ``t`` occupies on the tape: its allocation size, rounded up to 8."""
    return (layout.alloc_size(t) + 7) // 8 * 8


def defer_free(module: Module, b: Builder, tape: Value, block: Value) -> None:
    """Record ``block`` to be freed by ``release_tape`` (see the module docstring)."""
    push, _ = tape_functions(module)
    frees = b.gep(I8, tape, [_DEFERRED_FREES])
    b.store(block, b.call(push, [frees, const_int(I64, 8)]), 8)


def release_tape(module: Module, b: Builder, tape: Value) -> None:
    """Free the deferred blocks and the tape's stacks (not the tape struct itself)."""
    tape_functions(module)
    release = module.get_function("__pyenzyme_tape_release")
    assert release is not None
    b.call(release, [tape])


def reuse_tape(module: Module, b: Builder, tape: Value) -> None:
    """Start a fresh (zeroed) tape with the block the last released tape parked, if any; in device code, with
    a buffer on the thread's stack (``b`` must be in the entry block)."""
    tape_functions(module)
    if device_paths(module):
        buffer = b.alloca(ArrayType(DEVICE_STACK_TAPE, I8), align=16, name="tape.stack")
        b.store(buffer, tape, 8)
        b.store(const_int(I64, DEVICE_STACK_TAPE), b.gep(I8, tape, [16]), 8)
        return
    reuse = module.get_function(TAPE_REUSE)
    assert reuse is not None
    b.call(reuse, [tape])
