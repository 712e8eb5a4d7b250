"""What kind of callee is this?  The one answer every sweep dispatches on.

Forward mode, the augmented sweep and the reverse sweep all ask the same
question of a call, in the same order, here.  The order matters where a
callee fits several kinds: a user's declaration wins over the built-in
tables (``__enzyme_inactivefn`` over a math rule, a registered derivative
over the body), the built-in tables win over differentiating a body (the
libm rule of ``sin`` even if its bitcode is linked in).

A handler per kind then writes that kind's forward, augmented and reverse
code; :func:`classify_call` itself emits nothing and raises nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..ir import CallInst, Function, Module
from ..rules import canonical_name, lookup, lookup_multi
from ..rules.names import intrinsic_base
from ..rules.complex_functions import ComplexRule, complex_rule
from ..rules.dsl import Rule
from ..rules.memory import MemoryFunction, lookup_memory
from ..rules.mirrored import is_mirrored
from ..rules.mpi import mpi_call
from ..rules.scanf import scanf_function
from .common import is_inactive_function, is_inline_asm
from .complex_calls import is_complex_call
from .custom import custom_rules
from .checkpoint import checkpoint_of
from .fixed_point import fixed_point_of
from .tape import TAPE_REUSE
from .modes import Mode
from .null_callees import only_null_callee
from .openmp import is_openmp_runtime, is_parallel_region
from .print_only import is_print_only_variadic


class CallKind(Enum):
    INDIRECT = "indirect"          # through a function pointer: a dispatcher picks the callee's derivative
    INLINE_ASM = "inline asm"      # opaque machine code
    LIFETIME = "lifetime"          # llvm.lifetime.* markers of stack objects
    DROPPED = "dropped"            # the tape taking a spare block (tape.py): derivatives start their tapes empty
    PARALLEL = "parallel"          # an OpenMP parallel region (a fork the driver made a direct call; openmp.py)
    OPENMP = "openmp"              # an OpenMP runtime call (__kmpc_*) inside a region: openmp.py
    INACTIVE = "inactive"          # never carries a derivative (built-in table or the user's declaration)
    CUSTOM = "custom"              # a derivative the user registered for this mode
    MPI = "mpi"                    # an MPI call with a derivative (rules.mpi, helpers in runtime_bodies/mpi.c)
    MEMORY = "memory"              # allocation, free, copy, fill (rules.memory)
    SCANF = "scanf"                # scanf/fscanf/sscanf: parsed constants stored through pointers (scanf_calls.py)
    MIRRORED = "mirrored"          # walks/relinks a pointer structure (std::map's tree): the same call on the shadows
    MATH = "math"                  # a scalar rule (rules.math)
    STRUCT_MATH = "struct math"    # modf/frexp/sincos-style intrinsics returning several results
    REDUCTION = "reduction"        # llvm.vector.reduce.* of floats
    COMPLEX = "complex"            # complex multiply/divide helpers (__muldc3, ...) and functions (cexp, cpow, carg...)
    BARRIER = "barrier"            # a GPU thread-block barrier (__syncthreads): mirrored in the reverse sweep
    DEFINED = "defined"            # a function with a body: its derivative is generated
    UNKNOWN = "unknown"            # a declaration without any rule


#: The floating-point vector reductions (``llvm.vector.reduce.fadd.v4f64``...): vectors.py differentiates them.
REDUCTIONS = frozenset({"vector.reduce.fadd", "vector.reduce.fmul", "vector.reduce.fmax", "vector.reduce.fmin",
                        "vector.reduce.fmaximum", "vector.reduce.fminimum"})


#: Thread-block barriers of NVPTX (``__syncthreads``: ``llvm.nvvm.barrier.cta.sync.aligned.all``, ``barrier0``)
#: and AMDGPU (``llvm.amdgcn.s.barrier``).
GPU_BARRIERS = ("llvm.nvvm.barrier", "llvm.amdgcn.s.barrier")


def is_float_reduction(name: str) -> bool:
    """``llvm.vector.reduce.fadd.v4f64`` and the other floating-point reductions."""
    return intrinsic_base(name) in REDUCTIONS


def is_libm_sincos(name: str) -> bool:
    """glibc's ``sincos``/``sincosf``/``sincosl`` (results through pointers), not the ``llvm.sincos`` intrinsic."""
    return not name.startswith("llvm.") and canonical_name(name) == "sincos"


def is_struct_math_intrinsic(name: str) -> bool:
    """``llvm.modf.*``, ``llvm.frexp.*``, ``llvm.sincos.*``, ``llvm.sincospi.*`` (a rule in MULTI); glibc's
    ``sincos``/``sincosf``/``sincosl``: special_calls.py differentiates them."""
    return lookup_multi(name) is not None or is_libm_sincos(name)


@dataclass(frozen=True)
class CallSite:
    """A classified call: its kind and what that kind needs (the callee, its memory roles or rule)."""

    kind: CallKind
    name: str | None
    callee: Function | None
    memory: MemoryFunction | None = None
    rule: Rule | None = None
    complex: ComplexRule | None = None  # a C99 complex function (rules.complex_functions)


def classify_call(module: Module, inst: CallInst, mode: Mode) -> CallSite:
    """The kind of ``inst``'s callee for a sweep of ``mode`` (registered derivatives differ per mode)."""
    callee = inst.called_function
    name = inst.callee_name
    if name is None:
        if is_inline_asm(inst):
            return CallSite(CallKind.INLINE_ASM, None, None)
        if only_null_callee(module, inst):  # a Rust vtable's empty drop slot: never called
            return CallSite(CallKind.INACTIVE, None, None)
        return CallSite(CallKind.INDIRECT, None, None)
    if name.startswith("llvm.lifetime."):
        return CallSite(CallKind.LIFETIME, name, callee)
    if is_parallel_region(inst):
        return CallSite(CallKind.PARALLEL, name, callee)
    if is_openmp_runtime(name):
        return CallSite(CallKind.OPENMP, name, callee)
    if name == TAPE_REUSE:
        return CallSite(CallKind.DROPPED, name, callee)
    if name.startswith(GPU_BARRIERS):
        return CallSite(CallKind.BARRIER, name, callee)
    rules = custom_rules(module)
    if rules.is_inactive(callee):
        return CallSite(CallKind.INACTIVE, name, callee)
    registered = rules.forward(callee) if mode is Mode.FORWARD else rules.gradient(callee)
    if registered is not None or (mode is not Mode.FORWARD and (fixed_point_of(module, callee) is not None
                                                                or checkpoint_of(module, callee) is not None)):
        return CallSite(CallKind.CUSTOM, name, callee)
    if is_mirrored(name):  # before the inactive table: std::string's _M_create is in both
        return CallSite(CallKind.MIRRORED, name, callee)
    if is_inactive_function(name):
        return CallSite(CallKind.INACTIVE, name, callee)
    if mpi_call(name) is not None:
        return CallSite(CallKind.MPI, name, callee)
    memory = lookup_memory(name)
    if memory is not None:
        return CallSite(CallKind.MEMORY, name, callee, memory=memory)
    if scanf_function(name) is not None:
        return CallSite(CallKind.SCANF, name, callee)
    rule = lookup(name)
    if rule is not None:
        return CallSite(CallKind.MATH, name, callee, rule=rule)
    if is_struct_math_intrinsic(name):
        return CallSite(CallKind.STRUCT_MATH, name, callee)
    if is_float_reduction(name):
        return CallSite(CallKind.REDUCTION, name, callee)
    if is_complex_call(name):
        return CallSite(CallKind.COMPLEX, name, callee)
    crule = complex_rule(name)
    if crule is not None:
        return CallSite(CallKind.COMPLEX, name, callee, complex=crule)
    if is_print_only_variadic(callee):  # a printf-style logger (va_start, vfprintf): it only prints
        return CallSite(CallKind.INACTIVE, name, callee)
    if callee is not None and not callee.is_declaration:
        return CallSite(CallKind.DEFINED, name, callee)
    return CallSite(CallKind.UNKNOWN, name, callee)


class CallSites:
    """``classify_call`` for one derivative's sweeps, once per call (the walks ask per lane and per pass).

    The augmented and reverse sweeps see the same kinds (only registered derivatives differ by mode, and
    only forward mode differs from them), so a reverse-mode state keeps one of these for both.
    """

    def __init__(self, module: Module, mode: Mode) -> None:
        self.module = module
        self.mode = mode
        self._sites: dict[CallInst, CallSite] = {}

    def __call__(self, inst: CallInst) -> CallSite:
        site = self._sites.get(inst)
        if site is None:
            site = self._sites[inst] = classify_call(self.module, inst, self.mode)
        return site

