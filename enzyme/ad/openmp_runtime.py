"""The IR the OpenMP derivatives run on (openmp.py): per-thread tapes and the adjoint additions of regions.

* Each thread of a region's augmented fork runs on a tape of its own: the fork's microtask (a wrapper of
  the augmented sweep) lets thread 0 allocate one tape per thread while the others wait at a barrier;
  the reverse fork's microtask runs thread ``t``'s reverse sweep on tape ``t`` and checks that the team
  has as many threads; the tapes are released after the reverse fork, their blocks kept per thread for
  the next region (as tape.py keeps one block for the next top-level call).
* Adjoints of memory that other threads may reach are added with ``atomicrmw fadd``, unless the region
  runs alone (one thread, no active enclosing team), which the reverse microtask records in a
  thread-local flag.
"""
from __future__ import annotations

from ..errors import DifferentiationError
from ..ir import Function, Instruction, Module, Value
from ..ir.builder import Builder, const_int
from ..ir.splice import add_helper_functions
from ..ir.types import I64, FloatType, VectorType
from .common import describe
from .tape import tape_functions

TAPE_BYTES = 48  # tape.TAPE_STRUCT


#: 1 while this thread runs a region's reverse sweep in no active parallel region (a team of one thread, not
#: nested in a larger team): adjoints of shared memory are then added without atomics.
_PRIVATE_FLAG = "__pyenzyme_omp_adjoints_private"
_FLAG_IR = f"@{_PRIVATE_FLAG} = internal thread_local global i8 0\n"


_ATOMIC_FLOATS = ("half", "bfloat", "float", "double")  # atomicrmw fadd takes these (not x86_fp80, fp128)


def _add_helper(m: Module, t: FloatType) -> Function:
    """``*p += d``: atomically unless this thread's adjoints are private (see ``_PRIVATE_FLAG``)."""
    name = f"__pyenzyme_omp_add.{t}"
    got = m.get_function(name)
    if got is not None:
        return got
    if m.get(_PRIVATE_FLAG) is None:
        add_helper_functions(m, _FLAG_IR)
    add_helper_functions(m, f"""
@{_PRIVATE_FLAG} = external thread_local global i8
declare ptr @llvm.threadlocal.address.p0(ptr)
define internal void @{name}(ptr %p, {t} %d) alwaysinline {{
entry:
  %flag = call ptr @llvm.threadlocal.address.p0(ptr @{_PRIVATE_FLAG})
  %private = load i8, ptr %flag, align 1
  %plain = icmp ne i8 %private, 0
  br i1 %plain, label %add, label %atomic
add:
  %old = load {t}, ptr %p, align {t.bits // 8}
  %new = fadd {t} %old, %d
  store {t} %new, ptr %p, align {t.bits // 8}
  ret void
atomic:
  %prev = atomicrmw fadd ptr %p, {t} %d monotonic, align {t.bits // 8}
  ret void
}}
""")
    got = m.get_function(name)
    assert got is not None
    return got


def atomic_add(m: Module, b: Builder, shadow: Value, d: Value, inst: Instruction) -> None:
    """``*shadow += d``, atomically where other threads may add there too (element by element for a vector)."""
    t = d.type
    if isinstance(t, FloatType) and t.kind in _ATOMIC_FLOATS:
        b.call(_add_helper(m, t), [shadow, d])
    elif isinstance(t, VectorType) and isinstance(t.element, FloatType) and t.element.kind in _ATOMIC_FLOATS:
        add = _add_helper(m, t.element)
        for k in range(t.count):
            b.call(add, [b.gep(t.element, shadow, [const_int(I64, k)]), b.extractelement(d, k)])
    else:
        raise DifferentiationError(f"{describe(inst)}: reads a {t} from memory shared by the threads of an OpenMP "
                                   "parallel region; its adjoint cannot be added atomically (atomics take half, "
                                   "float and double values and vectors of them)")


def microtask(m: Module, sweep: Function, kind: str) -> Function:
    """The microtask that runs one thread's ``sweep`` (augmented or reverse) on that thread's tape."""
    name = f"{sweep.name}.omp_{kind}"
    got = m.get_function(name)
    if got is not None:
        return got
    # Nothing else reaches the tape's header while the sweep runs (a thread's tape is its own): LLVM may keep
    # its top in a register instead of storing it back at every push or pop (the shadows it writes between
    # them could otherwise alias it).
    tape = sweep.args[-1]
    if "noalias" not in tape.attrs.split():
        tape.attrs = f"noalias {tape.attrs}".strip()
    release_function(m)
    if m.get(_PRIVATE_FLAG) is None:
        add_helper_functions(m, _FLAG_IR)
    ptypes = sweep.function_type.params[2:-1]  # gtid, btid, captured..., tape
    params = "".join(f", {t} %a{i}" for i, t in enumerate(ptypes))
    args = "".join(f", {t} %a{i}" for i, t in enumerate(ptypes))
    call = f"  call void @{sweep.name}(ptr %gtid, ptr %btid{args}, ptr %tape)\n"
    decl = f"declare void @{sweep.name}({', '.join(str(t) for t in sweep.function_type.params)})\n"
    common = ("declare i32 @omp_get_thread_num()\ndeclare i32 @omp_get_num_threads()\ndeclare ptr @calloc(i64, i64)\n"
              "declare void @__kmpc_barrier(ptr, i32)\ndeclare void @abort()\n"
              "declare void @__pyenzyme_omp_tape_reuse(ptr, i32)\ndeclare i32 @omp_in_parallel()\n"
              "declare ptr @llvm.threadlocal.address.p0(ptr)\n"
              f"@{_PRIVATE_FLAG} = external thread_local global i8\n" + decl)
    if kind == "augmented":
        body = f"""
define internal void @{name}(ptr %gtid, ptr %btid, ptr %slot, ptr %ident{params}) {{
entry:
  %tid = call i32 @omp_get_thread_num()
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %make, label %wait
make:
  %n = call i32 @omp_get_num_threads()
  %n64 = sext i32 %n to i64
  %tapes = call ptr @calloc(i64 %n64, i64 {TAPE_BYTES})
  store ptr %tapes, ptr %slot, align 8
  %np = getelementptr inbounds i8, ptr %slot, i64 8
  store i32 %n, ptr %np, align 4
  br label %wait
wait:
  %g = load i32, ptr %gtid, align 4
  call void @__kmpc_barrier(ptr %ident, i32 %g)
  %all = load ptr, ptr %slot, align 8
  %t64 = sext i32 %tid to i64
  %tape = getelementptr inbounds [{TAPE_BYTES} x i8], ptr %all, i64 %t64
  call void @__pyenzyme_omp_tape_reuse(ptr %tape, i32 %tid)
{call}  ret void
}}
"""
    else:
        body = f"""
define internal void @{name}(ptr %gtid, ptr %btid, ptr %slot{params}) {{
entry:
  %tid = call i32 @omp_get_thread_num()
  %n = call i32 @omp_get_num_threads()
  %np = getelementptr inbounds i8, ptr %slot, i64 8
  %want = load i32, ptr %np, align 4
  %same = icmp eq i32 %n, %want
  br i1 %same, label %run, label %fail
fail:
  call void @abort()
  unreachable
run:
  %all = load ptr, ptr %slot, align 8
  %t64 = sext i32 %tid to i64
  %tape = getelementptr inbounds [{TAPE_BYTES} x i8], ptr %all, i64 %t64
  %flag = call ptr @llvm.threadlocal.address.p0(ptr @{_PRIVATE_FLAG})
  %was = load i8, ptr %flag, align 1
  %active = call i32 @omp_in_parallel()
  %alone = icmp eq i32 %active, 0
  %private = zext i1 %alone to i8
  store i8 %private, ptr %flag, align 1
{call}  store i8 %was, ptr %flag, align 1
  ret void
}}
"""
    add_helper_functions(m, common + body)
    got = m.get_function(name)
    assert got is not None
    return got


_RELEASE = "__pyenzyme_omp_release_tapes"
_SPARES = 64  # threads whose tape blocks are kept for the next parallel region (as tape.py keeps one)
#: Per-thread tapes: thread t starts from the block thread t parked last time (no realloc growth, no fresh
#: pages at every gradient), and the reverse fork's tapes are released into those slots.
_HELPERS_IR = f"""
@__pyenzyme_omp_spare_tapes = internal global [{_SPARES} x ptr] zeroinitializer
declare void @__pyenzyme_tape_release(ptr)
declare void @free(ptr)
define internal void @__pyenzyme_omp_tape_reuse(ptr %tape, i32 %t) {{
entry:
  %ok = icmp ult i32 %t, {_SPARES}
  br i1 %ok, label %take, label %done
take:
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds [{_SPARES} x ptr], ptr @__pyenzyme_omp_spare_tapes, i64 0, i64 %t64
  %spare = atomicrmw xchg ptr %p, ptr null acquire
  %none = icmp eq ptr %spare, null
  br i1 %none, label %done, label %use
use:
  %cap = load i64, ptr %spare, align 8
  store ptr %spare, ptr %tape, align 8
  %capp = getelementptr inbounds i8, ptr %tape, i64 16
  store i64 %cap, ptr %capp, align 8
  br label %done
done:
  ret void
}}
define internal void @__pyenzyme_omp_tape_park(ptr %block, i64 %cap, i32 %t) {{
entry:
  %some = icmp ne ptr %block, null
  %ok = icmp ult i32 %t, {_SPARES}
  %small = icmp ule i64 %cap, {1 << 28}
  %both = and i1 %some, %ok
  %keep = and i1 %both, %small
  br i1 %keep, label %park, label %drop
park:
  store i64 %cap, ptr %block, align 8
  %t64 = zext i32 %t to i64
  %p = getelementptr inbounds [{_SPARES} x ptr], ptr @__pyenzyme_omp_spare_tapes, i64 0, i64 %t64
  %swap = cmpxchg ptr %p, ptr null, ptr %block acq_rel monotonic
  %parked = extractvalue {{ ptr, i1 }} %swap, 1
  br i1 %parked, label %done, label %drop
drop:
  call void @free(ptr %block)
  br label %done
done:
  ret void
}}
define internal void @{_RELEASE}(ptr %slot) {{
entry:
  %all = load ptr, ptr %slot, align 8
  %np = getelementptr inbounds i8, ptr %slot, i64 8
  %n = load i32, ptr %np, align 4
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = sext i32 %i to i64
  %tape = getelementptr inbounds [{TAPE_BYTES} x i8], ptr %all, i64 %i64
  %base = load ptr, ptr %tape, align 8
  %capp = getelementptr inbounds i8, ptr %tape, i64 16
  %cap = load i64, ptr %capp, align 8
  store ptr null, ptr %tape, align 8
  call void @__pyenzyme_tape_release(ptr %tape)
  call void @__pyenzyme_omp_tape_park(ptr %base, i64 %cap, i32 %i)
  %i.next = add nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  call void @free(ptr %all)
  call void @free(ptr %slot)
  ret void
}}
"""


def release_function(m: Module) -> Function:
    """The module's per-thread tape helpers (added once); returns the release of a region's tapes."""
    if m.get_function(_RELEASE) is None:
        tape_functions(m)
        add_helper_functions(m, _HELPERS_IR)
    release = m.get_function(_RELEASE)
    assert release is not None
    return release
