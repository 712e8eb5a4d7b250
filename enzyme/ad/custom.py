"""User-registered derivatives and inactive functions, read from registration globals.

Programs register rules the way upstream Enzyme's C ABI does, with globals
whose names start with a reserved prefix (the rest of the name is free)::

    void *__enzyme_register_derivative_foo[2] = {(void *)foo, (void *)foo_fwd};
    void *__enzyme_register_gradient_foo[3] = {(void *)foo, (void *)foo_aug, (void *)foo_rev};
    void *__enzyme_inactivefn_foo = (void *)foo;

Signatures (checked when the rules are read, so a mistake is reported at the
registration, not as a crash inside generated code):

* ``foo_fwd`` takes foo's arguments, each floating-point or pointer argument
  followed by its tangent / shadow, and returns the tangent of foo's result
  (void if foo returns void).  It is called *before* foo with foo's inputs and
  must compute tangents only (write shadow memory, never primal memory): the
  primal result still comes from foo itself.
* ``foo_aug`` takes foo's arguments, pointer arguments followed by their
  shadow (floating-point arguments alone: they are ``out``), and returns
  ``{T, ptr}`` (foo's result and an opaque tape, which may be null), or just
  the tape ``ptr`` when foo returns void.  As in upstream Enzyme, it may also
  leave foo's result out when that is not a pointer: it then returns just the
  tape ``ptr``, or nothing (void) when it needs no tape, and foo itself is
  called (right after ``foo_aug``) for the result.
* ``foo_rev`` takes the same arguments, then ``dret`` (type T) if foo returns
  a floating-point value, then the tape (left out when ``foo_aug`` returns
  none); it returns the adjoints of foo's floating-point arguments (none:
  void, one: that scalar, several: a struct in argument order) and adds into
  pointer shadows.

Enzyme's source annotations (``enzyme_inactive``, ``enzyme_function_like``,
``enzyme_shadow``, the ``__enzyme_function_like``/``__enzyme_allocation_like``
tables, ...) are read here too, by :mod:`enzyme.ad.annotations`: inactive
functions join the ``__enzyme_inactivefn_*`` ones, the rest has fields of its own.

Example::

    rules = custom_rules(module)
    fwd = rules.forward(module.get_function("foo"))   # the registered foo_fwd, or None
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from ..errors import DifferentiationError, UsageError
from ..ir import (AllocaInst, CallInst, CastInst, ConstantAggregate, ConstantKeyword, Function, FunctionType, GEPInst,
                  GlobalVariable, Module, StoreInst, Value, strip_pointer_casts)
from ..ir.types import PTR, VOID, FloatType, PointerType, StructType, Type, VectorType
from ..rules import MATH
from ..rules.inactive_globals import inactive_global_reason
from ..rules.names import proxy_parts
from .annotations import AUTOREG_PREFIX, AllocationLike, Annotations, read_annotations, table_name

DERIVATIVE_PREFIX = "__enzyme_register_derivative"
GRADIENT_PREFIX = "__enzyme_register_gradient"
INACTIVE_PREFIX = "__enzyme_inactivefn"
PREFIXES = (DERIVATIVE_PREFIX, GRADIENT_PREFIX, INACTIVE_PREFIX)


@dataclass
class CustomRules:
    """The custom rules of one module, keyed by the primal function."""

    forwards: dict[Function, Function] = field(default_factory=dict)
    gradients: dict[Function, tuple[Function, Function]] = field(default_factory=dict)
    inactive: set[Function] = field(default_factory=set)
    globals: list[GlobalVariable] = field(default_factory=list)  # the registrations, removed after AD
    # Enzyme's source annotations and tables (enzyme.ad.annotations).
    inactive_globals: set[GlobalVariable] = field(default_factory=set)
    function_like: dict[Function, str] = field(default_factory=dict)
    allocation_like: dict[Function, AllocationLike] = field(default_factory=dict)
    shadows: dict[GlobalVariable, list[GlobalVariable]] = field(default_factory=dict)
    # Shadows a program asked for at one width (``__enzyme_shadow(&g, width, lane)``): derivatives of that many
    # directions use them instead of ``shadows``.
    width_shadows: dict[tuple[GlobalVariable, int], list[GlobalVariable]] = field(default_factory=dict)

    def forward(self, fn: Function | None) -> Function | None:
        """The registered forward derivative of ``fn`` (``foo_fwd``), else None."""
        return self.forwards.get(fn) if fn is not None else None

    def gradient(self, fn: Function | None) -> tuple[Function, Function] | None:
        """The registered (augmented, reverse) pair of ``fn``, else None."""
        return self.gradients.get(fn) if fn is not None else None

    def is_inactive(self, fn: Function | None) -> bool:
        """Was ``fn`` registered with ``__enzyme_inactivefn_*``?"""
        return fn is not None and fn in self.inactive

    def allocation(self, call: CallInst) -> AllocationLike | None:
        """The ``allocation_like`` declaration of the allocator a (proxied, enzyme.driver.proxies) call calls."""
        parts = proxy_parts(call.callee_name or "")
        if parts is None or parts[0] != "alloc":
            return None
        return next((spec for fn, spec in self.allocation_like.items() if fn.name == parts[2]), None)

    def is_inactive_global(self, g: Value | None) -> bool:
        """Is ``g`` a global variable declared inactive (it holds constants as far as derivatives go)?"""
        return g in self.inactive_globals

    def global_shadows(self, fn: Function, width: int) -> list[dict[Value, Value]]:
        """Per batch lane, the shadows of the shadowed globals ``fn`` names (checked: one per lane)."""
        lanes: list[dict[Value, Value]] = [{} for _ in range(width)]
        if not self.shadows:
            return lanes
        for inst in fn.instructions():
            for op in inst.operands:
                shadows = self.width_shadows.get((op, width)) or self.shadows.get(op)  # type: ignore[arg-type,call-overload]
                if shadows is None:
                    continue
                if len(shadows) < width:
                    raise DifferentiationError(
                        f"@{fn.name} uses @{op.name}, which has {len(shadows)} shadow(s), in a derivative of "
                        f"{width} directions; give it one shadow per direction (enzyme_shadow(d1, d2, ...))")
                for j in range(width):
                    lanes[j][op] = shadows[j]
        return lanes

    def __bool__(self) -> bool:
        return bool(self.forwards or self.gradients or self.inactive or self.inactive_globals or self.function_like
                    or self.allocation_like or self.shadows)


_CACHE: weakref.WeakKeyDictionary[Module, CustomRules] = weakref.WeakKeyDictionary()


def custom_rules(module: Module) -> CustomRules:
    """The custom rules registered in ``module`` (read once per module, validated; raises UsageError)."""
    got = _CACHE.get(module)
    if got is None:
        got = _read(module)
        _CACHE[module] = got
    return got


def remove_registrations(module: Module) -> None:
    """Delete the registration globals, so they no longer keep rule functions alive.

    Call only once every request of the module has been differentiated.
    """
    rules = custom_rules(module)
    kept = _listed_in_llvm_used(module)
    for g in rules.globals:
        if g.has_uses or g in kept or module.globals.get(g.name or "") is not g:
            continue  # the program itself reads it: leave it
        del module.globals[g.name or ""]
        module.entities.remove(g)
        g.module = None
    for g in module.global_variables:
        target = strip_pointer_casts(g.initializer) if g.initializer is not None else None
        if table_name(g.name or "").startswith(AUTOREG_PREFIX) and isinstance(target, GlobalVariable) \
                and target.initializer is None:
            # The attribute's carrier (enzyme_attributes.cpp) of a variable declared but defined nowhere (upstream's
            # customglob.cpp): the derivatives no longer need it, and it alone would make the link fail.
            g.initializer = ConstantKeyword(PTR, "null")
    _CACHE.pop(module, None)


# -- reading -------------------------------------------------------------------------------------
def _read(module: Module) -> CustomRules:
    rules = CustomRules()
    _merge(rules, read_annotations(module))
    rules.inactive_globals |= {g for g in module.global_variables if inactive_global_reason(g.name)}
    for g in module.global_variables:
        name = table_name(g.name or "")
        prefix = next((p for p in PREFIXES if name.startswith(p)), None)
        if prefix is None:
            continue
        rules.globals.append(g)
        fns = _functions_in(g)
        if prefix == INACTIVE_PREFIX:
            if not fns:
                raise UsageError(f"@{name}: an __enzyme_inactivefn_* global must hold a function pointer "
                                 "(e.g. void *__enzyme_inactivefn_foo = (void *)foo;)")
            rules.inactive.update(fns)
            continue
        want = 2 if prefix == DERIVATIVE_PREFIX else 3
        if len(fns) != want:
            shape = ("{(void *)foo, (void *)foo_fwd}" if want == 2 else
                     "{(void *)foo, (void *)foo_aug, (void *)foo_rev}")
            raise UsageError(f"@{name}: expected an array of {want} function pointers {shape}, found "
                             f"{_describe_initializer(g)}")
        primal = fns[0]
        if prefix == DERIVATIVE_PREFIX:
            _check(name, fns[1], forward_signature(primal), "forward derivative")
            _not_twice(name, primal, rules.forwards)
            rules.forwards[primal] = fns[1]
        else:
            _check_augmented(name, fns[1], primal)
            _check(name, fns[2], reverse_signature(primal, tape=has_tape(fns[1])), "reverse function")
            _not_twice(name, primal, rules.gradients)
            rules.gradients[primal] = (fns[1], fns[2])
    return rules


def _merge(rules: CustomRules, found: Annotations) -> None:
    rules.inactive |= found.inactive_functions
    rules.inactive_globals = found.inactive_globals
    rules.function_like = found.function_like
    rules.allocation_like = found.allocation_like
    rules.shadows = found.shadows
    rules.globals += found.tables


def _functions_in(g: GlobalVariable) -> list[Function]:
    """The functions a registration names, in order; a non-function entry makes the list empty."""
    init = g.initializer
    items: list[Value] = list(init.elements) if isinstance(init, ConstantAggregate) else \
        ([init] if init is not None else [])
    out = []
    for v in items:
        v = strip_pointer_casts(v)
        if not isinstance(v, Function):
            return []
        out.append(v)
    return out


def _describe_initializer(g: GlobalVariable) -> str:
    return f"{g.value_type} {g.initializer.text() if g.initializer is not None else '(no initializer)'}"


def _not_twice(name: str, primal: Function, table: dict) -> None:
    if primal in table:
        raise UsageError(f"@{name}: @{primal.name} already has a registered rule of this kind; keep one")


def _check(name: str, fn: Function, expected: FunctionType, what: str) -> None:
    got = fn.function_type
    if got.ret != expected.ret or got.params != expected.params or got.vararg:
        raise UsageError(f"@{name}: the {what} @{fn.name} has type {got}, expected {expected} "
                         "(see enzyme.ad.custom for the calling convention)")


def _check_augmented(name: str, aug: Function, primal: Function) -> None:
    """``foo_aug`` returns ``{T, ptr}``, or leaves the (non-pointer) result to foo: ``ptr`` or void."""
    expected = augmented_signature(primal)
    got = aug.function_type
    rt = primal.return_type
    short = rt.is_void or not isinstance(rt, PointerType)
    if short and not got.vararg and got.params == expected.params and (got.ret.is_void or got.ret == PTR):
        return
    _check(name, aug, expected, "augmented forward function")


# -- signatures ----------------------------------------------------------------------------------
def has_tape(aug: Function) -> bool:
    """Does the registered ``foo_aug`` return a tape (it then goes to ``foo_rev``)?"""
    return not aug.return_type.is_void


def returns_primal(aug: Function, primal: Function) -> bool:
    """Does ``foo_aug`` return foo's result (``{T, ptr}``)?  Else foo_aug replaces a void foo, or foo is
    called for its result."""
    return not primal.return_type.is_void and isinstance(aug.return_type, StructType)


_STACK_ONLY_CALLS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl")


def writes_only_its_stack(fn: Function) -> bool:
    """Conservatively: can no instruction of ``fn`` change memory its caller sees?

    Stores and memory intrinsics must target ``fn``'s own allocas; other calls
    are allowed only to LLVM intrinsics that write nothing.
    """
    if fn.is_declaration:
        return False
    for inst in fn.instructions():
        if isinstance(inst, StoreInst):
            if not isinstance(_base(inst.pointer), AllocaInst):
                return False
        elif isinstance(inst, CallInst):
            name = inst.callee_name or ""
            if name.startswith(("llvm.memcpy", "llvm.memmove", "llvm.memset")):
                if not isinstance(_base(inst.args[0]), AllocaInst):
                    return False
            elif not name.startswith(_STACK_ONLY_CALLS) and not _pure_intrinsic(inst):
                return False
        elif inst.opcode in ("atomicrmw", "cmpxchg", "invoke", "callbr", "fence"):
            return False
    return True


def _base(p: Value) -> Value:
    while isinstance(p, (GEPInst, CastInst)):
        p = p.operand(0)
    return p


def _pure_intrinsic(call: CallInst) -> bool:
    """An LLVM intrinsic or a libm function with a derivative rule (``llvm.fabs``, ``exp``, ...) taking no
    pointer: it writes no memory (errno aside)."""
    name = call.callee_name or ""
    if any(isinstance(a.type, PointerType) for a in call.args):
        return False
    return name.startswith("llvm.") or name in MATH


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType) or (isinstance(t, VectorType) and isinstance(t.element, FloatType))


def forward_signature(primal: Function) -> FunctionType:
    """``foo_fwd``: each float/pointer argument followed by its tangent; returns the result's tangent."""
    params: list[Type] = []
    for p in primal.function_type.params:
        params.append(p)
        if is_float(p) or isinstance(p, PointerType):
            params.append(p)
    return FunctionType(primal.return_type, tuple(params))


def gradient_params(primal: Function) -> list[Type]:
    """Arguments of ``foo_aug``/``foo_rev``: pointer arguments followed by their shadow."""
    params: list[Type] = []
    for p in primal.function_type.params:
        params.append(p)
        if isinstance(p, PointerType):
            params.append(p)
    return params


def augmented_signature(primal: Function) -> FunctionType:
    rt = primal.return_type
    ret: Type = PTR if rt.is_void else StructType((rt, PTR))
    return FunctionType(ret, tuple(gradient_params(primal)))


def reverse_signature(primal: Function, tape: bool = True) -> FunctionType:
    params = gradient_params(primal)
    if is_float(primal.return_type):
        params.append(primal.return_type)
    if tape:
        params.append(PTR)
    adjoints = adjoint_types(primal)
    ret: Type = VOID if not adjoints else adjoints[0] if len(adjoints) == 1 else StructType(adjoints)
    return FunctionType(ret, tuple(params))


def adjoint_types(primal: Function) -> tuple[Type, ...]:
    """Types ``foo_rev`` returns adjoints for: foo's floating-point arguments, in order."""
    return tuple(p for p in primal.function_type.params if is_float(p))


def _listed_in_llvm_used(module: Module) -> set[Value]:
    out: set[Value] = set()
    for name in ("llvm.used", "llvm.compiler.used"):
        g = module.globals.get(name)
        if isinstance(g, GlobalVariable) and isinstance(g.initializer, ConstantAggregate):
            out.update(g.initializer.elements)
    return out
