"""C signatures of compiled functions, read from the IR, and how Python values map onto them.

Each parameter is a *float* (``double``/``float``), an *int* (``i1``..``i64``)
or a *pointer* (passed a contiguous numpy array).  For pointers, the type
analysis of the function says, where it can, which element type the function
reads or writes; an array of another dtype is then refused instead of being
silently reinterpreted.  A read-only array (``writeable=False``, e.g.
``np.frombuffer`` over ``bytes``) is accepted only for a pointer LLVM proves
the function never writes through, and never as a shadow (derivatives are
written into shadows).
"""
from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UsageError
from ..ir import FloatType, Function, IntType, PointerType, Type
from ..ir.types import VoidType
from .errors import ArgumentTypeError, ArgumentValueError

_FLOAT_CTYPES = {"double": ctypes.c_double, "float": ctypes.c_float}
_INT_CTYPES = {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16, 32: ctypes.c_int32, 64: ctypes.c_int64}
_FLOAT_DTYPES: dict[str, np.dtype[Any]] = {"double": np.dtype(np.float64), "float": np.dtype(np.float32)}
# Arguments whose bytes are not what they seem (a struct passed in memory): refuse rather than guess.
_UNSUPPORTED_ATTRS = ("byval", "sret", "inalloca", "preallocated")
_DEREFERENCEABLE = re.compile(r"(?<![\w_])dereferenceable\((\d+)\)")


@dataclass(frozen=True)
class Param:
    """One parameter: ``kind`` is ``"float"``, ``"int"`` or ``"pointer"``."""

    index: int
    kind: str
    ir_type: str
    ctype: Any
    dtype: np.dtype[Any] | None = None  # pointee element type when the type analysis knows it
    # False only where LLVM proves the function never writes through the pointer (read-only arrays allowed).
    written: bool = True
    # Fortran indexes arrays column-major: a 2-D or higher array is passed in Fortran order (np.asfortranarray).
    fortran: bool = False
    # Bytes the function may access without a check (`dereferenceable(N)`: C's `x[static n]`, C++ references to
    # arrays); a smaller array would be read or written past its end.
    min_bytes: int = 0

    @property
    def bits(self) -> int:
        return int(self.ir_type[1:]) if self.kind == "int" else 0

    def describe(self, function: str) -> str:
        return f"argument {self.index + 1} ({self.ir_type}) of {function}"


@dataclass(frozen=True)
class Signature:
    name: str
    params: tuple[Param, ...]
    ret_kind: str  # "float" | "int" | "pointer" | "void"
    ret_ir_type: str
    ret_ctype: Any

    @property
    def ir_function_type(self) -> str:
        return f"{self.ret_ir_type} ({', '.join(p.ir_type for p in self.params)})"


def _kind(t: Type) -> tuple[str, Any] | None:
    if isinstance(t, FloatType) and t.kind in _FLOAT_CTYPES:
        return "float", _FLOAT_CTYPES[t.kind]
    if isinstance(t, IntType) and t.bits in _INT_CTYPES:
        return "int", _INT_CTYPES[t.bits]
    if isinstance(t, PointerType) and t.addrspace == 0:
        return "pointer", ctypes.c_void_p
    return None


def signature_of(fn: Function, pointee_dtypes: list[np.dtype[Any] | None] | None = None,
                 read_only: tuple[bool, ...] = (), *, fortran: bool = False) -> Signature:
    """The :class:`Signature` of ``fn``; UsageError for parameter types Python cannot pass.

    ``read_only[i]`` says the function provably never writes through argument ``i``
    (see :func:`enzyme.llvm.read_only_arguments`); unknown arguments may be written.
    ``fortran``: ``fn`` is Fortran code, whose arrays are column-major.
    """
    ftype = fn.function_type
    if ftype.vararg:
        raise UsageError(f"@{fn.name} is variadic; call it through a non-variadic C function")
    params = []
    for i, (arg, t) in enumerate(zip(fn.args, ftype.params)):
        kind = _kind(t)
        attrs = arg.attrs
        if kind is None or any(a in attrs.split() or a + "(" in attrs for a in _UNSUPPORTED_ATTRS):
            raise UsageError(f"argument {i + 1} of @{fn.name} has type {t} {attrs}".rstrip()
                             + "; only double, float, integer and pointer parameters can be passed from Python "
                             "(wrap the function in a C function taking those)")
        dtype = pointee_dtypes[i] if pointee_dtypes is not None else None
        written = not (i < len(read_only) and read_only[i])
        extent = _DEREFERENCEABLE.search(attrs) if kind[0] == "pointer" else None
        params.append(Param(i, kind[0], str(t), kind[1], dtype, written, fortran,
                            int(extent.group(1)) if extent else 0))
    ret = ftype.ret
    if isinstance(ret, VoidType):
        ret_kind, ret_ctype = "void", None
    else:
        kind = _kind(ret)
        if kind is None:
            raise UsageError(f"@{fn.name} returns {ret}; only double, float, integer, pointer or void results "
                             "can be returned to Python (return it through a pointer argument)")
        ret_kind, ret_ctype = kind
    return Signature(fn.name or "", tuple(params), ret_kind, str(ret), ret_ctype)


def pointee_dtypes(module: Any, fn: Function) -> list[np.dtype[Any] | None]:
    """Per parameter, the element dtype a pointer parameter is accessed as, when the type analysis knows it."""
    from ..analysis import TypeAnalysis

    try:
        info = TypeAnalysis(module).analyze(fn)
    except Exception:  # noqa: BLE001 - a hint only: without it arrays are merely not dtype-checked
        return [None] * len(fn.args)
    out: list[np.dtype[Any] | None] = []
    for arg in fn.args:
        dtype: np.dtype[Any] | None = None
        if isinstance(arg.type, PointerType):
            concrete = info.pointee_type(arg, 0)
            if concrete is not None and concrete.is_float:
                dtype = _FLOAT_DTYPES.get(concrete.float_kind or "")
        out.append(dtype)
    return out


# ------------------------------------------------------------- value conversion
_char_view = ctypes.c_char.from_buffer
_addressof = ctypes.addressof


def array_address(x: np.ndarray) -> int:
    """The data address of a contiguous array, fast (~0.5 us, ``x.ctypes.data`` costs ~5 us)."""
    try:
        return _addressof(_char_view(x))  # type: ignore[arg-type]
    except (TypeError, ValueError, BufferError):  # read-only or empty arrays
        return int(x.ctypes.data)


def check_array(param: Param, value: Any, function: str, what: str = "", *, shadow: bool = False) -> np.ndarray:
    """``value`` as a contiguous numpy array fit for ``param``, else ArgumentTypeError/ValueError.

    A read-only array is refused where the call may write it: as a ``shadow``
    always, as a primal unless the function provably never writes through ``param``.
    """
    if type(value) is np.ndarray:
        flags = value.flags
        if (flags.f_contiguous if param.fortran else flags.c_contiguous) and (
                flags.writeable or not (shadow or param.written)) and (
                value.dtype == param.dtype if param.dtype is not None else value.dtype.kind in "fiub") and (
                value.nbytes >= param.min_bytes):
            return value
    where = f"{what}{param.describe(function)}"
    if not isinstance(value, np.ndarray):
        raise ArgumentTypeError(f"{where} is a pointer: pass a contiguous numpy array, not {type(value).__name__}")
    if param.fortran and not value.flags.f_contiguous:
        # A C-order matrix handed to Fortran would be read transposed: never silently.
        raise ArgumentValueError(
            f"{where} is a Fortran array, stored column-major: pass np.asfortranarray(x) (the same matrix; for "
            "a(m, n) an array of shape (m, n))")
    if not param.fortran and not value.flags.c_contiguous:
        raise ArgumentValueError(f"{where} must be a C-contiguous (row-major) array, as C indexes it; pass "
                                 "np.ascontiguousarray(x)")
    if param.dtype is not None and value.dtype != param.dtype:
        raise ArgumentTypeError(f"{where} points to {param.dtype} values but the array has dtype "
                                f"{value.dtype}; pass x.astype(np.{param.dtype})")
    if value.dtype.kind not in "fiub":
        raise ArgumentTypeError(f"{where} must be a float or integer array, not dtype {value.dtype}")
    if value.nbytes < param.min_bytes:
        item = value.itemsize or 1
        raise ArgumentValueError(
            f"{where} is declared to hold at least {param.min_bytes // item} elements of {value.dtype} "
            f"({param.min_bytes} bytes, e.g. `x[static n]` or a reference to an array), but the array has "
            f"{value.size} ({value.nbytes} bytes): the function would access memory past its end")
    if not value.flags.writeable and shadow:
        raise ArgumentValueError(f"{where} is a read-only array (writeable=False), but derivatives are written "
                                 "into shadows; pass a writeable array, e.g. enzyme.make_zero(x)")
    if not value.flags.writeable and param.written:
        raise ArgumentValueError(f"{where} is a read-only array (writeable=False), but {function} may write "
                                 "through it (LLVM cannot prove that it only reads it); pass a writeable copy, "
                                 "e.g. x.copy()")
    return value


def check_scalar(param: Param, value: Any, function: str, what: str = "") -> Any:
    """``value`` as a Python number fit for ``param``."""
    t = type(value)
    if param.kind == "float":
        if t is float:
            return value
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
            return float(value)
        raise ArgumentTypeError(f"{what}{param.describe(function)} is a {param.ir_type}: pass a number, not "
                                f"{t.__name__}")
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if not isinstance(value, (int, np.integer)):
        raise ArgumentTypeError(f"{what}{param.describe(function)} is an integer: pass an int, not {t.__name__}")
    v = int(value)
    bits = param.bits
    if bits > 1 and not -(1 << (bits - 1)) <= v < (1 << bits):
        raise ArgumentValueError(f"{what}{param.describe(function)} is an {param.ir_type}: {v} is out of range")
    return v


def to_c(param: Param, value: Any, function: str, what: str = "") -> Any:
    """The ctypes-ready form of ``value`` for ``param`` (an address for pointers)."""
    if param.kind == "pointer":
        return array_address(check_array(param, value, function, what))
    return check_scalar(param, value, function, what)
