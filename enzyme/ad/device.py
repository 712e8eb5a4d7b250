"""GPU device code: what the reverse sweep does differently where many threads run the same derivative.

Every thread of a kernel runs the derivative of the ``__device__`` function it
differentiates.  Threads may read the same global or shared memory (a weight
array, a stencil's neighbours): the primal is race-free, but the reverse sweep
adds each read's adjoint into the shadow of that memory, and several threads
adding into one place at once lose updates.  In device code those additions are
atomic (``atomicrmw fadd``), except into thread-private memory (a shadow of an
``alloca``).  Stores are not: two threads writing one place is already a race
in the primal.  A thread-block barrier (``__syncthreads``) in the differentiated
function is mirrored in the reverse sweep, where threads exchange adjoints
through shared memory in the reverse order.

The tape (tape.py) starts in a 192-byte buffer on the thread's stack and
grows with ``malloc`` + ``memcpy`` + ``free`` rather than ``realloc``, which
device code lacks; it is not parked for the next call (a module-wide slot
would be shared by every thread).  AMDGPU has no device ``malloc`` that
pyenzyme can call: there a tape that outgrows the stack buffer stops the
kernel (``llvm.trap``, reported by the HIP runtime), never a wrong number.

``PYENZYME_DEVICE_PATHS=1`` at build time takes these device paths for host
code too, so that tests can check their numbers on the CPU against finite
differences (a test aid: atomics and the malloc tape cost time on the host).
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable

from ..errors import DifferentiationError
from ..ir import AllocaInst, ArrayType, CastInst, GEPInst, Module, StructType, Type, Value, VectorType
from ..ir.builder import Builder, const_int
from ..ir.instructions import AtomicRMWInst, CallInst, FenceInst
from ..ir.target_attributes import is_gpu_module
from ..ir.types import I32, I64, FloatType

_ATOMIC_FLOATS = ("half", "bfloat", "float", "double")
DEVICE_PATHS_FLAG = "PYENZYME_DEVICE_PATHS"


def device_paths(module: Module) -> bool:
    """Does ``module``'s derivative code take the device paths (a GPU module, or the test flag)?"""
    return is_gpu_module(module) or os.environ.get(DEVICE_PATHS_FLAG) == "1"


def amdgpu(module: Module) -> bool:
    return (module.triple or "").startswith("amdgcn")


def thread_private(p: Value) -> bool:
    """Is ``p`` (through GEPs and casts) an ``alloca``: memory no other thread sees?"""
    while isinstance(p, (GEPInst, CastInst)):
        p = p.operand(0)
    return isinstance(p, AllocaInst)


def accumulate_into(module: Module, b: Builder, ptr: Value, d: Value, align: int | None,
                    fadd_deep: Callable[[Builder, Value, Value], Value]) -> None:
    """``*ptr += d`` for an adjoint ``d`` (a float, a vector of floats, or a struct/array holding them).

    Atomic in device code unless ``ptr`` is thread-private; a plain load-add-store otherwise.
    """
    if not device_paths(module) or thread_private(ptr):
        b.store(fadd_deep(b, b.load(d.type, ptr, align=align), d), ptr, align)
        return
    _atomic_add(b, ptr, d, d.type, align)


def _atomic_add(b: Builder, ptr: Value, d: Value, t: Type, align: int | None) -> None:
    if isinstance(t, FloatType):
        if str(t) not in _ATOMIC_FLOATS:
            raise DifferentiationError(f"device code: no atomic add for {t}: the adjoint of memory of this type "
                                       "cannot be accumulated by many threads at once")
        b.insert(AtomicRMWInst("fadd", ptr, d, "monotonic", align))
    elif isinstance(t, VectorType):
        for i in range(t.count):
            element = b.gep(t, ptr, [const_int(I64, 0), const_int(I64, i)])
            _atomic_add(b, element, b.extractelement(d, i), t.element, None)
    elif isinstance(t, (StructType, ArrayType)):
        elements = t.elements if isinstance(t, StructType) else (t.element,) * t.count
        for i, et in enumerate(elements):
            if _carries_float(et):
                field = b.gep(t, ptr, [const_int(I64, 0), const_int(I32, i) if isinstance(t, StructType)
                                       else const_int(I64, i)])
                _atomic_add(b, field, b.extractvalue(d, [i]), et, None)
    else:
        raise DifferentiationError(f"device code: cannot accumulate an adjoint of type {t} atomically")


def _carries_float(t: Type) -> bool:
    if isinstance(t, FloatType):
        return True
    if isinstance(t, VectorType):
        return isinstance(t.element, FloatType)
    if isinstance(t, StructType):
        return any(_carries_float(e) for e in t.elements)
    if isinstance(t, ArrayType):
        return _carries_float(t.element)
    return False


_LOAD_ADD_STORE = re.compile(
    r"(?P<s>%s[\w.]*) = load (?P<t>\w+), ptr (?P<p>%ps[\w.]*)(?P<align>, align \d+)?\n"
    r"(?P<indent>\s*)(?P<sum>%sum[\w.]*) = fadd (?P=t) (?P=s), (?P<a>%a[\w.]*)\n"
    r"\s*store (?P=t) (?P=sum), ptr (?P=p)(?:, align \d+)?")


def atomic_helper_text(module: Module, text: str) -> str:
    """A copy-adjoint helper's IR with its ``load; fadd; store`` into the source shadow made atomic in device
    code (memcopy.py writes those three lines with these names)."""
    if not device_paths(module):
        return text
    return _LOAD_ADD_STORE.sub(
        lambda m: f"{m['sum']} = atomicrmw fadd ptr {m['p']}, {m['t']} {m['a']} monotonic{m['align'] or ''}", text)




def mirror_barrier(module: Module, b: Builder, inst: CallInst, args: list[Value]) -> None:
    """The reverse of a thread-block barrier: the same barrier (with the fences HIP puts around it on AMDGPU),
    so that adjoints written to shared memory by one thread are seen by the others, as the values were."""
    callee = inst.called_function
    if callee is None:
        raise DifferentiationError(f"{inst.callee_name}: a barrier called through a pointer cannot be mirrored")
    if amdgpu(module):
        b.insert(FenceInst('syncscope("workgroup") release'))
    b.call(callee, args)
    if amdgpu(module):
        b.insert(FenceInst('syncscope("workgroup") acquire'))
