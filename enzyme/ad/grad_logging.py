"""The gradient-logging hook of upstream Enzyme's tests: ``enzymeLogGrad``.

When the module has a function named ``enzymeLogGrad``, every reverse sweep
calls it once per active scalar floating-point operation that has a
derivative rule (arithmetic, libm and intrinsic calls), when the operation's
adjoint is complete, just before it is passed on to the operands.  Batch
reverse mode calls it once per direction.  Forward mode has no adjoints and
never calls it.  The hook's signature picks what it receives (those of
upstream's ``test/Integration/ReverseMode/logger.cpp``)::

    void enzymeLogGrad(double grad, const char *opcode, const char *callee, const char *module,
                       const char *function, unsigned block, unsigned inst);
    void enzymeLogGrad(double result, double grad, const char *opcode, const char *callee,
                       const char *module, const char *function, unsigned block, unsigned inst,
                       unsigned n_operands, double *operands);

``grad`` is the adjoint, ``result`` and ``operands`` the primal values (all
widened to double), ``opcode`` LLVM's name of the operation (``fmul``,
``call``), ``callee`` the called function (empty otherwise), ``module`` the
module's source file, ``function`` the function differentiated, and
``block``/``inst`` the operation's position (block index in the function,
instruction index in the block) in the optimized code that is differentiated.
Any other signature is refused: calling it would pass garbage.
"""
from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..ir import (ArrayType, CallInst, ConstantFP, ConstantText, Function, FunctionType, GlobalVariable, Instruction,
                  Module, RawEntity, Value)
from ..ir.builder import Builder, InsertPoint, const_int
from ..ir.types import DOUBLE, I8, I32, PTR, VOID, FloatType
from ..rules.names import proxied_function

if TYPE_CHECKING:
    from .reverse_state import ReverseState

HOOK = "enzymeLogGrad"
_MANGLED = f"_Z{len(HOOK)}{HOOK}"
#: (grad, opcode, callee, module, function, block, inst)
SHORT = FunctionType(VOID, (DOUBLE, PTR, PTR, PTR, PTR, I32, I32))
#: (result, grad, opcode, callee, module, function, block, inst, n_operands, operands)
LONG = FunctionType(VOID, (DOUBLE, DOUBLE, PTR, PTR, PTR, PTR, I32, I32, I32, PTR))


# The string constants the hook's calls pass, one global per module and text.
_STRINGS: weakref.WeakKeyDictionary[Module, dict[str, GlobalVariable]] = weakref.WeakKeyDictionary()


def gradient_hook(module: Module) -> Function | None:
    """The module's ``enzymeLogGrad`` (checked), or None when it has none."""
    hook = module.get_function(HOOK)
    if hook is None:  # C++ without extern "C", as upstream's test writes it: _Z13enzymeLogGraddPKc...
        hook = next((f for f in module.functions if (f.name or "").startswith(_MANGLED)), None)
    if hook is None:
        return None
    if hook.function_type not in (SHORT, LONG):
        raise UsageError(
            f"@{HOOK} has type {hook.function_type}; the reverse sweep calls it as upstream Enzyme's logger test "
            "does: void enzymeLogGrad(double grad, const char *opcode, const char *callee, const char *module, "
            "const char *function, unsigned block, unsigned inst), or with (double result, double grad, ..., "
            "unsigned inst, unsigned n_operands, double *operands); rename a function of another purpose")
    return hook


def log_gradient(gen: ReverseState, b: Builder, inst: Instruction, grad: Value, operands: Sequence[Value]) -> None:
    """Call the hook (if the module has one) for ``inst`` of the primal, whose adjoint is ``grad``."""
    # Looked up once per differentiation of the module: finding a C++ hook scans every function.
    key = ("gradient-hook",)
    if key not in gen.ctx.memo:
        gen.ctx.memo[key] = gradient_hook(gen.m)
    hook: Function | None = gen.ctx.memo[key]
    if hook is None or not isinstance(inst.type, FloatType):
        return
    fn = gen.fn
    block = inst.parent
    assert block is not None
    callee = inst.callee_name if isinstance(inst, CallInst) else ""
    strings = [_string(gen.m, text) for text in
               (inst.opcode, proxied_function(callee or ""), _source_file(gen.m), fn.name or "")]
    where = [const_int(I32, fn.blocks.index(block)), const_int(I32, block.instructions.index(inst))]
    if hook.function_type == SHORT:
        b.call(hook, [_widened(b, grad), *strings, *where])
        return
    buffer = Builder(InsertPoint(gen.rentry, gen.rentry.instructions[0] if gen.rentry.instructions else None)) \
        .alloca(ArrayType(max(len(operands), 1), DOUBLE), name="logged.operands")
    for i, a in enumerate(operands):
        value = gen.primal(a) if isinstance(a.type, FloatType) else None
        b.store(_widened(b, value) if value is not None else _zero_double(), b.gep(DOUBLE, buffer, [i]))
    result = _widened(b, gen.primal(inst))
    b.call(hook, [result, _widened(b, grad), *strings, *where, const_int(I32, len(operands)), buffer])


def _widened(b: Builder, v: Value) -> Value:
    """``v`` as a double (the hook's type for every value)."""
    t = v.type
    assert isinstance(t, FloatType)
    return v if t == DOUBLE else b.cast("fpext" if t.bits < 64 else "fptrunc", v, DOUBLE)


def _zero_double() -> Value:
    return ConstantFP.of(DOUBLE, 0.0)


def _source_file(module: Module) -> str:
    for e in module.entities:
        if isinstance(e, RawEntity) and e.kind == "header":
            m = re.match(r'\s*source_filename\s*=\s*"([^"]*)"', e.text)
            if m:
                return m.group(1)
    return ""


def _string(module: Module, text: str) -> GlobalVariable:
    made = _STRINGS.setdefault(module, {})
    g = made.get(text)
    if g is None or g.module is not module:
        data = text.encode() + b"\0"
        spelling = 'c"' + "".join(chr(c) if 32 <= c < 127 and chr(c) not in '"\\' else f"\\{c:02X}"
                                  for c in data) + '"'
        t = ArrayType(len(data), I8)
        g = GlobalVariable(module.unique_name(".pyenzyme.log"), t, initializer=ConstantText(t, spelling),
                           is_constant=True, prefix="private unnamed_addr")
        module.add(g)
        made[text] = g
    return g
