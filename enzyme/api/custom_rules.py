"""Custom derivatives from Python for functions the compiled code calls (EnzymeRules' ``forward``,
``augmented_primal``, ``reverse``, ``inactive``).

A rule is wired into the library's module as the registration globals of
the C ABI (``__enzyme_register_derivative_*``, ``__enzyme_register_gradient_*``,
``__enzyme_inactivefn_*``, see :mod:`enzyme.ad.custom` for the calling
conventions).  Each rule function may be given as

* the **name** of a function in the library (or in ``sources=``, e.g. a C
  file with the rules, compiled and linked in);
* **IR text** defining one function;
* a **Python callable**, called through a ctypes callback.  Arguments follow
  the C ABI, with pointers as integer addresses (see :func:`as_array`):

  - ``forward(x, dx, p, dp, n, ...)``: every float or pointer argument followed
    by its tangent / shadow; returns the result's tangent (None for void).
  - ``augmented_primal(x, p, dp, n, ...)``: pointers followed by their shadow,
    floats alone; returns ``(primal, tape)`` (just ``tape`` for void
    functions); the tape is any Python object.
  - ``reverse(x, p, dp, n, ..., [dret,] tape)``: the same arguments, the
    result's adjoint for a float result, the tape object; returns the
    adjoints of the float arguments (None, one number, or a tuple in argument
    order) and adds into pointer shadows itself.

  An exception raised by a Python rule is re-raised by the ``autodiff`` call
  that ran it.  Libraries with Python rules are not cached on disk (the
  generated code holds addresses of this process).

>>> import enzyme, math
>>> lib = enzyme.compile('''
... declare double @mysin(double)
... define double @f(double %x) {
...   %y = call double @mysin(double %x)
...   %z = fmul double %y, %x
...   ret double %z
... }
... define double @mysin(double %x) noinline {
...   %y = call double @llvm.sin.f64(double %x)
...   ret double %y
... }
... '''.replace("declare double @mysin(double)\\n", ""))
>>> enzyme.custom_rule(lib, "mysin", forward=lambda x, dx: math.cos(x) * dx)
>>> enzyme.autodiff(enzyme.Forward, lib.f, enzyme.DuplicatedNoNeed, enzyme.Duplicated(0.5, 1.0))[0] == \\
...     math.cos(0.5) * 0.5 + math.sin(0.5)
True
"""
from __future__ import annotations

import ctypes
import itertools
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import UsageError
from ..ir import Function, FunctionType, Type, parse_module
from ..ir.names import quote_name
from ..ir.types import FloatType, IntType, PointerType, StructType, VoidType
from .errors import ArgumentTypeError
from .library import Library, compile

_counter = itertools.count()
# Exceptions raised inside Python rules (ctypes cannot propagate them); autodiff re-raises the first.
pending_errors: list[BaseException] = []
_tapes: dict[int, Any] = {}
_tape_handles = itertools.count(1)


def as_array(address: int, shape: int | tuple[int, ...], dtype: Any = np.float64) -> np.ndarray:
    """A numpy view of ``shape`` elements at ``address`` (for pointer arguments of Python rules)."""
    if not address:
        raise UsageError("as_array: null pointer")
    count = int(np.prod(shape))
    dt = np.dtype(dtype)
    buf = (ctypes.c_char * (count * dt.itemsize)).from_address(address)
    return np.frombuffer(buf, dtype=dt, count=count).reshape(shape)


def raise_pending() -> None:
    """Re-raise an exception a Python rule raised during the last call (called after every wrapper call)."""
    if pending_errors:
        exc = pending_errors[0]
        pending_errors.clear()
        raise exc


def custom_rule(
    lib: Library,
    symbol: str,
    *,
    forward: str | Callable[..., Any] | None = None,
    augmented_primal: str | Callable[..., Any] | None = None,
    reverse: str | Callable[..., Any] | None = None,
    inactive: bool = False,
    sources: Sequence[str | os.PathLike[str]] = (),
) -> None:
    """Register derivatives of ``symbol`` (a function the code of ``lib`` calls) for all later differentiation.

    Give ``forward`` (forward mode), ``augmented_primal`` and ``reverse``
    together (reverse modes), and/or ``inactive=True`` (the function never
    carries derivatives).  Signatures are checked now: a mismatch raises
    UsageError naming the expected C signature.
    """
    if not isinstance(lib, Library):
        raise ArgumentTypeError(f"custom_rule: the first argument must be an enzyme.Library, not {type(lib).__name__}")
    if (augmented_primal is None) != (reverse is None):
        raise UsageError("custom_rule: give augmented_primal and reverse together (the reverse rule gets the tape "
                         "the augmented primal returns)")
    if forward is None and augmented_primal is None and not inactive:
        raise UsageError("custom_rule: nothing to register; give forward=, augmented_primal= and reverse=, or "
                         "inactive=True")
    if sources:
        extra = compile(list(sources))
        from .. import llvm

        lib.add_ir(f"rules for {symbol}", llvm.to_text(llvm.parse(extra.bitcode)))
        lib.languages = lib.languages | extra.languages
    primal = _primal(lib, symbol)
    from ..ad.custom import augmented_signature, forward_signature, reverse_signature

    n = next(_counter)
    tag = f"pyenzyme_{n}"
    pieces: list[str] = [_declare(primal)]
    process_local = False
    prim = "@" + quote_name(symbol)
    if forward is not None:
        fwd, text, local = _rule_function(lib, forward, forward_signature(primal), "forward", f"{tag}_fwd", primal)
        pieces.append(text)
        process_local |= local
        pieces.append(f"@__enzyme_register_derivative_{tag} = global [2 x ptr] [ptr {prim}, ptr @{quote_name(fwd)}]\n")
    if augmented_primal is not None and reverse is not None:
        aug, text, local = _rule_function(lib, augmented_primal, augmented_signature(primal), "augmented_primal",
                                          f"{tag}_aug", primal)
        pieces.append(text)
        process_local |= local
        rev, text, local = _rule_function(lib, reverse, reverse_signature(primal), "reverse", f"{tag}_rev", primal)
        pieces.append(text)
        process_local |= local
        pieces.append(f"@__enzyme_register_gradient_{tag} = global [3 x ptr] [ptr {prim}, ptr @{quote_name(aug)}, "
                      f"ptr @{quote_name(rev)}]\n")
    if inactive:
        pieces.append(f"@__enzyme_inactivefn_{tag} = global ptr {prim}\n")
    if process_local:
        lib.process_local = True
    lib.add_ir(f"custom rule {n} for {symbol}", "".join(dict.fromkeys(pieces)))


# ----------------------------------------------------------------------------- helpers
def _primal(lib: Library, symbol: str) -> Function:
    fn = lib.ir_module().get_function(symbol)
    if fn is None:
        raise UsageError(f"custom_rule: {lib.name} neither calls nor defines a function {symbol!r}; give the name "
                         "of the function as it appears in the IR (e.g. a Fortran bind(C) name)")
    return fn


def _declare(fn: Function) -> str:
    t = fn.function_type
    return f"declare {t.ret} @{quote_name(fn.name or '')}({', '.join(map(str, t.params))})\n"


def _rule_function(lib: Library, rule: Any, expected: FunctionType, kind: str, name: str,
                   primal: Function) -> tuple[str, str, bool]:
    """(symbol of the rule function, IR to link for it, made of Python callbacks?)."""
    where = f"custom_rule({primal.name!r}, {kind}=...)"
    if isinstance(rule, str) and ("define " in rule and "\n" in rule):
        module = parse_module(rule)
        defined = [f for f in module.functions if not f.is_declaration and " internal " not in f" {f.prefix} "]
        if len(defined) != 1:
            raise UsageError(f"{where}: the IR text must define exactly one (non-internal) function, found "
                             f"{len(defined)}")
        _check_type(where, defined[0], expected)
        return defined[0].name or "", rule if rule.endswith("\n") else rule + "\n", False
    if isinstance(rule, str):
        fn = lib.ir_module().get_function(rule)
        if fn is None or fn.is_declaration:
            raise UsageError(f"{where}: {lib.name} defines no function {rule!r} (compile the rule with the library, or "
                             "pass its source in sources=)")
        _check_type(where, fn, expected)
        return rule, _declare(fn), False
    if callable(rule):
        return name, _python_rule(lib, rule, expected, kind, name, primal, where), True
    raise ArgumentTypeError(f"{where}: a rule is a function name, IR text or a Python callable, not "
                            f"{type(rule).__name__}")


def _check_type(where: str, fn: Function, expected: FunctionType) -> None:
    got = fn.function_type
    if got.ret != expected.ret or got.params != expected.params or got.vararg:
        raise UsageError(f"{where}: @{fn.name} has type {got}, expected {expected}")


def _ctype(t: Type) -> Any:
    if isinstance(t, FloatType):
        return {"double": ctypes.c_double, "float": ctypes.c_float}.get(t.kind)
    if isinstance(t, IntType):
        return {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16, 32: ctypes.c_int32,
                64: ctypes.c_int64}.get(t.bits)
    if isinstance(t, PointerType):
        return ctypes.c_void_p
    return None


def _python_rule(lib: Library, rule: Callable[..., Any], expected: FunctionType, kind: str, name: str,
                 primal: Function, where: str) -> str:
    """IR of a trampoline ``@name`` with the expected type that calls ``rule`` through a ctypes callback.

    The callback returns nothing; results go through pointers the trampoline
    passes after the arguments, so struct results (primal and tape,
    several adjoints) need no ctypes struct returns.
    """
    params = list(expected.params)
    ctypes_in = [_ctype(t) for t in params]
    if any(c is None for c in ctypes_in):
        raise UsageError(f"{where}: Python rules support double, float, integer and pointer arguments only")
    ret = expected.ret
    if kind == "augmented_primal":
        outs = ([] if isinstance(ret, PointerType) else [ret.elements[0]]) + [PointerType()]  # type: ignore[attr-defined]
    elif isinstance(ret, VoidType):
        outs = []
    elif isinstance(ret, StructType):
        outs = list(ret.elements)
    else:
        outs = [ret]
    out_ctypes = [_ctype(t) for t in outs]
    if any(c is None for c in out_ctypes):
        raise UsageError(f"{where}: Python rules support double, float, integer and pointer results only")
    n_args = len(params) - (1 if kind == "reverse" else 0)  # the tape is converted separately
    _check_arity(rule, len(params), where, expected)

    def callback(*raw: Any) -> None:
        try:
            args = list(raw[: len(params)])
            if kind == "reverse":
                args[n_args] = _tapes.pop(args[n_args] or 0, None)
            got = rule(*args)
            addresses = raw[len(params):]
            values: list[Any]
            if kind == "augmented_primal":
                if len(outs) == 2:
                    if not (isinstance(got, tuple) and len(got) == 2):
                        raise UsageError(f"{where} must return (primal, tape), got {got!r}")
                    primal_value, tape = got
                else:
                    primal_value, tape = None, got
                handle = next(_tape_handles)
                _tapes[handle] = tape
                values = ([primal_value] if len(outs) == 2 else []) + [handle]
            elif not outs:
                if got is not None:
                    raise UsageError(f"{where} must return None (the function has no float arguments/result), "
                                     f"got {got!r}")
                values = []
            else:
                values = list(got) if isinstance(got, (tuple, list)) else [got]
                if len(values) != len(outs):
                    raise UsageError(f"{where} must return {len(outs)} value(s), got {got!r}")
            for address, ct, value in zip(addresses, out_ctypes, values):
                ct.from_address(address).value = value
        except BaseException as exc:  # noqa: BLE001 - re-raised by autodiff after the call returns
            pending_errors.append(exc)

    proto = ctypes.CFUNCTYPE(None, *ctypes_in, *([ctypes.c_void_p] * len(outs)))
    cb = proto(callback)
    lib.keepalive.append(cb)
    address = ctypes.cast(cb, ctypes.c_void_p).value
    arg_list = ", ".join(f"{t} %a{i}" for i, t in enumerate(params))
    lines = [f"define internal {ret} @{quote_name(name)}({arg_list}) {{"]
    for k, t in enumerate(outs):
        lines.append(f"  %o{k} = alloca {t}")
        lines.append(f"  store {t} {'null' if isinstance(t, PointerType) else 'zeroinitializer'}, ptr %o{k}")
    call_args = [f"{t} %a{i}" for i, t in enumerate(params)] + [f"ptr %o{k}" for k in range(len(outs))]
    lines.append(f"  call void inttoptr (i64 {address} to ptr)({', '.join(call_args)})")
    for k, t in enumerate(outs):
        lines.append(f"  %r{k} = load {t}, ptr %o{k}")
    if isinstance(ret, VoidType):
        lines.append("  ret void")
    elif len(outs) == 1:
        lines.append(f"  ret {ret} %r0")
    else:
        acc = "poison"
        for k in range(len(outs)):
            lines.append(f"  %s{k} = insertvalue {ret} {acc}, {outs[k]} %r{k}, {k}")
            acc = f"%s{k}"
        lines.append(f"  ret {ret} {acc}")
    lines.append("}")
    # Internal trampolines are dropped by the optimizer unless something refers to them: the registration does.
    return "\n".join(lines).replace("define internal", "define") + "\n"


def _check_arity(rule: Callable[..., Any], n: int, where: str, expected: FunctionType) -> None:
    import inspect

    try:
        sig = inspect.signature(rule)
    except (TypeError, ValueError):
        return  # builtins without signatures: checked when called
    try:
        sig.bind(*range(n))
    except TypeError:
        raise UsageError(f"{where}: the Python rule must accept {n} arguments (C signature {expected}), but its "
                         f"signature is {sig}") from None
