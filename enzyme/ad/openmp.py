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

The IR the forks run on (microtasks, per-thread tapes, the adjoint additions) is in openmp_runtime.py;
which critical sections reverse mode accepts, in openmp_sections.py.
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import DifferentiationError
from ..ir import AllocaInst, CallInst, CastInst, Function, FunctionType, GEPInst, Instruction, Module, Value
from ..ir.builder import Builder, const_int
from ..ir.types import I32, I64, PTR, VOID
from .common import ADContext, describe
from .openmp_runtime import microtask, release_function
from .openmp_sections import check_summing_section

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


def refuse_in_parallel(ctx: ADContext, fn: Function, inst: Instruction, what: str, pointer: Value) -> None:
    """Refuse reverse code that would add adjoints into shared memory without atomics."""
    if needs_atomic_adjoint(ctx, fn, pointer):
        raise DifferentiationError(f"{describe(inst)}: {what} memory shared by the threads of an OpenMP parallel "
                                   "region; reverse mode cannot add its adjoints race-free there yet")


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


def augmented_fork(m: Module, inst: CallInst, push: Callable[[Builder, Value], None]
                   ) -> Callable[[Builder, Function, list[Value]], Value]:
    """Emit the fork of a region's augmented sweep; the record of its tapes goes on the caller's tape."""
    def emit(b: Builder, aug: Function, args: list[Value]) -> Value:
        _check_captured(inst, aug)
        calloc = m.declare_function("calloc", FunctionType(PTR, (I64, I64)))
        slot = b.call(calloc, [const_int(I64, 1), const_int(I64, 16)], name="omp.tapes")
        push(b, slot)
        ident, captured = args[1], args[2:-1]
        return fork(m, b, ident, microtask(m, aug, "augmented"), [slot, ident, *captured])
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
        call = fork(m, b, ident, microtask(m, rev, "reverse"), [slot, *captured])
        b.call(release_function(m), [slot])
        return call
    return emit
