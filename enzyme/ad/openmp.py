"""OpenMP parallel regions: the derivative of ``#pragma omp parallel`` runs in parallel too.

clang outlines a parallel region into a function ``f(ptr gtid, ptr btid, captured...)`` and calls
``__kmpc_fork_call(ident, n, f, captured...)``: every thread of the team runs ``f``.  Before
differentiating, the driver (``driver/openmp_regions.py``) rewrites each fork as a direct call
``f(@__pyenzyme_omp_parallel, ident, captured...)`` so that the analyses see an ordinary call; the
marker global in the first argument tells the engine that the call is a fork, and whatever fork is
still marked after differentiation is turned back into ``__kmpc_fork_call``.

* Forward mode forks the tangent of ``f`` (the captured shadows are more captured arguments; the call is
  marked as the region's was, and becomes a fork with the others).
* Reverse mode forks the augmented sweep of ``f`` and, in the reverse sweep, its reverse sweep, with
  the same number of threads (``__kmpc_push_num_threads``).  Each thread gets a tape of its own: the
  augmented fork's thread 0 allocates one per thread (the others wait at a barrier), thread ``t`` of
  the reverse fork pops what thread ``t`` pushed, and the tapes are released after the reverse fork.
* The reverse sweep of every function a parallel region runs adds adjoints into memory that is not
  the thread's own (not an ``alloca`` of that function) with ``atomicrmw fadd``: several threads may
  have read the same element (a stencil's neighbours), so their adjoints meet there.
* Reductions (``__kmpc_reduce``) are rewritten by the driver into a critical section in which every
  thread adds its partial; a critical section's reverse is a critical section, a barrier's reverse a
  barrier.  Schedules whose chunks the runtime hands out at run time (``__kmpc_dispatch_*``: dynamic,
  guided, runtime) are differentiated in forward mode and refused in reverse mode; every other OpenMP
  runtime call (tasks, ordered, copyprivate, teams, ...) is refused, naming the call and its line.
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import DifferentiationError
from ..ir import AllocaInst, CallInst, CastInst, Function, FunctionType, GEPInst, Instruction, Module, Value
from ..ir.builder import Builder, const_int
from ..ir.splice import add_helper_functions
from ..ir.types import I32, I64, PTR, VOID, FloatType, VectorType
from .common import ADContext, describe
from .openmp_sections import check_summing_section
from .tape import tape_functions

#: The first argument of a parallel region's outlined function called directly (see the module docstring).
PARALLEL_MARKER = "__pyenzyme_omp_parallel"
FORK = "__kmpc_fork_call"
#: OpenMP runtime calls that carry no derivative and need nothing in the reverse sweep: thread ids,
#: static schedules (each thread gets the same chunk in the augmented and the reverse fork), the team size,
#: which thread runs a single or master block (its result is taped per thread: calls are never recomputed).
_PLAIN = frozenset({
    "__kmpc_global_thread_num", "__kmpc_for_static_init_4", "__kmpc_for_static_init_4u", "__kmpc_for_static_init_8",
    "__kmpc_for_static_init_8u", "__kmpc_for_static_fini", "__kmpc_push_num_threads", "__kmpc_serialized_parallel",
    "__kmpc_end_serialized_parallel", "__kmpc_flush", "__kmpc_single", "__kmpc_end_single", "__kmpc_master",
    "__kmpc_end_master", "__kmpc_masked", "__kmpc_end_masked"})
#: Chunks handed out at run time: fine in forward mode, refused in reverse mode.
_DISPATCH = ("__kmpc_dispatch_init_", "__kmpc_dispatch_next_", "__kmpc_dispatch_fini_", "__kmpc_dispatch_deinit")
#: A critical section's reverse is a critical section: the reverse of entering is leaving and back.
_CRITICAL_REVERSE = {"__kmpc_critical": "__kmpc_end_critical", "__kmpc_critical_with_hint": "__kmpc_end_critical",
                     "__kmpc_end_critical": "__kmpc_critical"}
TAPE_BYTES = 48  # tape.TAPE_STRUCT


def is_parallel_region(inst: CallInst) -> bool:
    """Is ``inst`` a fork the driver rewrote into a direct call of the outlined function?"""
    args = inst.args
    return bool(args) and getattr(args[0], "name", None) == PARALLEL_MARKER and inst.called_function is not None


#: The lock API: fine in forward mode; reverse mode would run the adjoint updates of the locked code without
#: the lock (critical sections it reverses, locks it does not).
_LOCKS = ("omp_set_lock", "omp_unset_lock", "omp_test_lock", "omp_set_nest_lock", "omp_unset_nest_lock",
          "omp_test_nest_lock")


_LOCK_LIFETIME = ("omp_init_lock", "omp_destroy_lock", "omp_init_nest_lock", "omp_destroy_nest_lock")


def is_openmp_runtime(name: str) -> bool:
    return name.startswith("__kmpc_") or name in _LOCKS or name in _LOCK_LIFETIME


# -- which functions run inside parallel regions ---------------------------------------------------------------


def parallel_functions(ctx: ADContext) -> frozenset[Function]:
    """The outlined functions of the module's parallel regions and every function they call (through a
    pointer: every function whose address is taken)."""
    key = ("openmp", "parallel functions")
    got = ctx.memo.get(key)
    if got is None:
        work = [inst.called_function for f in ctx.module.functions for inst in f.instructions()
                if isinstance(inst, CallInst) and is_parallel_region(inst)]
        seen: set[Function] = set()
        indirect = False
        while work:
            g = work.pop()
            if g is None or g in seen or g.is_declaration:
                continue
            seen.add(g)
            for inst in g.instructions():
                if isinstance(inst, CallInst):
                    work.append(inst.called_function)
                    indirect |= inst.called_function is None
            if indirect and not work:
                indirect = False
                work = [f for f in ctx.module.functions if f not in seen and any(
                    not (isinstance(u.user, CallInst) and u.user.callee is f) for u in f.uses)]
        got = ctx.memo[key] = frozenset(seen)
    return got


def thread_private(p: Value) -> bool:
    """Is ``p`` into a stack object of the function itself (each thread has its own)?"""
    while isinstance(p, (GEPInst, CastInst)):
        p = p.operand(0)
    return isinstance(p, AllocaInst)


def needs_atomic_adjoint(ctx: ADContext, fn: Function, pointer: Value) -> bool:
    """Must the reverse sweep of ``fn`` add adjoints into the shadow of ``pointer`` atomically?"""
    return fn in parallel_functions(ctx) and not thread_private(pointer)


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


def refuse_in_parallel(ctx: ADContext, fn: Function, inst: Instruction, what: str, pointer: Value) -> None:
    """Refuse reverse code that would add adjoints into shared memory without atomics."""
    if needs_atomic_adjoint(ctx, fn, pointer):
        raise DifferentiationError(f"{describe(inst)}: {what} from memory shared by the threads of an OpenMP "
                                   "parallel region; reverse mode cannot add its adjoint race-free yet")


# -- OpenMP runtime calls inside a region ------------------------------------------------------------------------


#: The constructs behind the runtime calls refused, for the message.
_CONSTRUCTS = (("__kmpc_omp_task", "a task"), ("__kmpc_omp_taskwait", "taskwait"), ("__kmpc_taskloop", "taskloop"),
               ("__kmpc_taskgroup", "taskgroup"), ("__kmpc_end_taskgroup", "taskgroup"), ("__kmpc_ordered", "ordered"),
               ("__kmpc_end_ordered", "ordered"), ("__kmpc_copyprivate", "copyprivate"),
               ("__kmpc_reduce", "a reduction outside a parallel region"), ("__kmpc_end_reduce", "a reduction"),
               ("__kmpc_dist", "distribute"),
               ("__kmpc_fork_teams", "teams"), ("__kmpc_push_proc_bind", "proc_bind"),
               ("__kmpc_atomic", "an atomic update through the runtime"), ("__kmpc_threadprivate", "threadprivate"),
               ("__kmpc_fork_call", "region inside a derivative's reverse sweep (differentiating reverse mode of a "
                "parallel region again, e.g. a Hessian: use forward mode for the inner derivative) or a region "
                "without a body"))


def check_runtime_call(inst: CallInst, name: str, reverse: bool) -> None:
    """Refuse OpenMP runtime calls whose semantics the derivative would not honour."""
    if name in _CRITICAL_REVERSE:
        if reverse:
            check_summing_section(inst)
        return
    if name in _PLAIN or name == "__kmpc_barrier" or name in _LOCK_LIFETIME:
        return
    if name in _LOCKS:
        if reverse:
            raise DifferentiationError(
                f"{describe(inst)}: OpenMP locks (@{name}) are not differentiated in reverse mode: the reverse "
                "sweep would update adjoints without the lock; use `#pragma omp critical` or `atomic` (forward mode "
                "supports locks)")
        return
    if name.startswith(_DISPATCH):
        if reverse:
            raise DifferentiationError(
                f"{describe(inst)}: OpenMP schedule(dynamic), schedule(guided) or schedule(runtime) (@{name}) is "
                "not differentiated in reverse mode: the chunks each thread gets are decided at run time; use "
                "schedule(static) (forward mode supports all schedules)")
        return
    construct = next((what for prefix, what in _CONSTRUCTS if name.startswith(prefix)), "this OpenMP construct")
    raise DifferentiationError(f"{describe(inst)}: OpenMP {construct} (@{name}) is not differentiated")


def reverse_runtime_call(m: Module, b: Builder, inst: CallInst, name: str) -> None:
    """The reverse of a barrier is a barrier; of entering a critical section, leaving it (and back)."""
    if name != "__kmpc_barrier" and name not in _CRITICAL_REVERSE:
        return
    ident = inst.args[0]
    gtid = b.call(m.declare_function("__kmpc_global_thread_num", FunctionType(I32, (PTR,))), [ident])
    if name == "__kmpc_barrier":
        b.call(m.declare_function(name, FunctionType(VOID, (PTR, I32))), [ident, gtid])
        return
    other = _CRITICAL_REVERSE[name]
    b.call(m.declare_function(other, FunctionType(VOID, (PTR, I32, PTR))), [ident, gtid, inst.args[2]])


# -- forks -----------------------------------------------------------------------------------------------------


def fork(m: Module, b: Builder, ident: Value, microtask: Value, captured: list[Value]) -> CallInst:
    """``__kmpc_fork_call(ident, n, microtask, captured...)``."""
    fn = m.declare_function(FORK, FunctionType(VOID, (PTR, I32, PTR), vararg=True))
    return b.call(fn, [ident, const_int(I32, len(captured)), microtask, *captured], function_type=fn.function_type)


def _check_captured(inst: CallInst, d: Function) -> None:
    for p in d.function_type.params[2:]:
        if p != PTR and p != I64 and p != I32:
            raise DifferentiationError(f"{describe(inst)}: an OpenMP parallel region captures a {p} by value; "
                                       "its derivative cannot be passed to the threads")


def forward_fork(m: Module, inst: CallInst) -> Callable[[Builder, Function, list[Value]], Value]:
    """Call a region's tangent ``d`` with the marker, ident, captured values and shadows: a marked call like the
    region's own, which the driver turns into a fork at the end (and which a second differentiation of this
    derivative sees as a region too)."""
    def emit(b: Builder, d: Function, args: list[Value]) -> Value:
        _check_captured(inst, d)
        return b.call(d, args)
    return emit


def _wrapper(m: Module, sweep: Function, kind: str) -> Function:
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
    _helpers(m)
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


def _helpers(m: Module) -> Function:
    """The module's per-thread tape helpers (added once); returns the release of a region's tapes."""
    if m.get_function(_RELEASE) is None:
        tape_functions(m)
        add_helper_functions(m, _HELPERS_IR)
    release = m.get_function(_RELEASE)
    assert release is not None
    return release


def augmented_fork(m: Module, inst: CallInst, push: Callable[[Builder, Value], None]
                   ) -> Callable[[Builder, Function, list[Value]], Value]:
    """Emit the fork of a region's augmented sweep; the record of its tapes goes on the caller's tape."""
    def emit(b: Builder, aug: Function, args: list[Value]) -> Value:
        _check_captured(inst, aug)
        calloc = m.declare_function("calloc", FunctionType(PTR, (I64, I64)))
        slot = b.call(calloc, [const_int(I64, 1), const_int(I64, 16)], name="omp.tapes")
        push(b, slot)
        ident, captured = args[1], args[2:-1]
        return fork(m, b, ident, _wrapper(m, aug, "augmented"), [slot, ident, *captured])
    return emit


def reverse_fork(m: Module, inst: CallInst, pop: Callable[[Builder], Value]
                 ) -> Callable[[Builder, Function, list[Value]], Value]:
    """Emit the fork of a region's reverse sweep, on as many threads as the augmented fork had."""
    def emit(b: Builder, rev: Function, args: list[Value]) -> Value:
        if not rev.return_type.is_void:
            raise DifferentiationError(f"{describe(inst)}: an OpenMP parallel region captures an active value by "
                                       "value (firstprivate); reverse mode needs it shared (captured by reference)")
        slot = pop(b)
        ident, captured = args[1], args[2:-1]
        n = b.load(I32, b.gep(PTR, slot, [const_int(I64, 1)]), align=4)
        gtid = b.call(m.declare_function("__kmpc_global_thread_num", FunctionType(I32, (PTR,))), [ident])
        b.call(m.declare_function("__kmpc_push_num_threads", FunctionType(VOID, (PTR, I32, I32))), [ident, gtid, n])
        call = fork(m, b, ident, _wrapper(m, rev, "reverse"), [slot, *captured])
        b.call(_helpers(m), [slot])
        return call
    return emit
