"""``gradient``, ``gradient_``, ``jacobian`` and ``make_zero``: thin layers over :func:`autodiff`.

>>> import numpy as np, enzyme
>>> lib = enzyme.compile('''
... define double @f(ptr %x) {
...   %a = load double, ptr %x
...   %p = getelementptr double, ptr %x, i64 1
...   %b = load double, ptr %p
...   %y = fmul double %a, %b
...   ret double %y
... }
... ''')
>>> enzyme.gradient(enzyme.Reverse, lib.f, np.array([2.0, 3.0]))
array([3., 2.])
>>> enzyme.gradient(enzyme.Forward, lib.f, np.array([2.0, 3.0]), chunk=2)
(3.0, 2.0)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import UsageError
from .annotations import (
    Active,
    Annotation,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
    Forward,
    Mode,
    Reverse,
)
from .differentiation import as_cfunction, autodiff, check_mode
from .errors import ArgumentTypeError, ArgumentValueError


def make_zero(x: Any) -> Any:
    """A zero of the same shape and type: arrays -> ``np.zeros_like``, numbers -> 0, containers recursively.

    >>> make_zero(np.array([1.5, 2.0])), make_zero(3.0), make_zero((1.0, [2.0]))
    (array([0., 0.]), 0.0, (0.0, [0.0]))
    """
    if isinstance(x, np.ndarray):
        return np.zeros_like(x)
    if isinstance(x, (bool, np.bool_)):
        return x  # not differentiable: like Enzyme.jl, inactive values are kept
    if isinstance(x, (int, float, complex, np.number)):
        return type(x)(0)
    if isinstance(x, tuple):
        return tuple(make_zero(v) for v in x)
    if isinstance(x, list):
        return [make_zero(v) for v in x]
    if isinstance(x, dict):
        return {k: make_zero(v) for k, v in x.items()}
    if isinstance(x, Annotation):
        raise ArgumentTypeError("make_zero takes a value, not an annotation; use make_zero(a.val)")
    return x


#: Rows of a reverse-mode Jacobian per generated call when ``chunk`` is not given.
REVERSE_CHUNK = 16


def _is_array(x: Any) -> bool:
    return isinstance(x, np.ndarray)


def _onehots(n: int, like: np.ndarray, start: int, count: int) -> tuple[np.ndarray, ...]:
    """``count`` unit directions starting at flat index ``start`` (zero directions past the end pad a chunk)."""
    out = []
    for k in range(count):
        e = np.zeros_like(like)
        if start + k < n:
            e.flat[start + k] = 1  # C index order whatever the memory order (reshape may copy)
        out.append(e)
    return tuple(out)


def _chunk(chunk: int | None, n: int) -> int:
    if chunk is None:
        return 1
    if not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise ArgumentValueError(f"chunk must be a positive integer, not {chunk!r}")
    return int(min(chunk, max(n, 1)))


def gradient(mode: Mode, f: Any, x: Any, *args: Any, chunk: int | None = None,
             argnums: int | tuple[int, ...] | None = None) -> Any:
    """The gradient of a real-valued ``f(x, *args)`` with respect to ``x`` (``args`` are Const).

    * ``Reverse``: a new array (``make_zero(x)`` filled with the gradient), or a
      number for a scalar ``x``.
    * ``Forward``: a tuple with one derivative per element of ``x`` (as
      Enzyme.jl), computed ``chunk`` directions per generated call
      (``BatchDuplicated`` of width ``chunk``; ``None``: one direction per call).

    ``argnums`` (as JAX's) differentiates with respect to other or several
    arguments: positions in ``(x, *args)``; an int gives that argument's
    gradient, a tuple a tuple of gradients (reverse mode: all from one call).
    The arguments not named are Const.
    """
    mode = check_mode(mode, "gradient")
    fn = as_cfunction(f, "gradient")
    if mode.reverse and chunk is not None:
        raise UsageError("gradient: chunk applies to forward mode only")
    values = (x, *args)
    if argnums is None:
        return _gradient_at(mode, fn, values, 0, chunk)
    positions = (argnums,) if isinstance(argnums, (int, np.integer)) else tuple(argnums)
    for i in positions:
        if not isinstance(i, (int, np.integer)) or not 0 <= i < len(values):
            raise ArgumentValueError(f"gradient: argnums {argnums!r} must name positions 0..{len(values) - 1} of "
                                     f"(x, *args)")
        if isinstance(values[i], Annotation):
            raise ArgumentValueError(f"gradient: argument {i + 1}, selected by argnums, is annotated "
                                     f"({type(values[i]).__name__}); pass the plain value")
    if len(set(positions)) != len(positions):
        raise ArgumentValueError(f"gradient: argnums {argnums!r} repeats a position")
    if isinstance(argnums, (int, np.integer)):
        return _gradient_at(mode, fn, values, int(argnums), chunk)
    if not mode.reverse:
        return tuple(_gradient_at(mode, fn, values, int(i), chunk) for i in positions)
    call: list[Any] = list(values)
    for i in positions:
        call[i] = Duplicated(values[i], make_zero(values[i])) if _is_array(values[i]) else Active(values[i])
    derivs = autodiff(Reverse, fn, Active, *call)[0]
    return tuple(call[i].dval if _is_array(values[i]) else derivs[i] for i in positions)


def _gradient_at(mode: Mode, fn: Any, values: tuple[Any, ...], i: int, chunk: int | None) -> Any:
    """The gradient with respect to argument ``i`` of ``values`` (the others Const)."""
    x = values[i]

    def call(ann: Any) -> list[Any]:
        return [ann if k == i else v for k, v in enumerate(values)]

    if mode.reverse:
        if not _is_array(x):
            return autodiff(Reverse, fn, Active, *call(Active(x)))[0][i]
        dx = make_zero(x)
        autodiff(Reverse, fn, Active, *call(Duplicated(x, dx)))
        return dx
    if not _is_array(x):
        return autodiff(Forward, fn, DuplicatedNoNeed, *call(Duplicated(x, 1.0)))[0]
    n = x.size
    width = _chunk(chunk, n)
    out: list[float] = []
    for start in range(0, n, width):
        if width == 1:
            out.append(autodiff(Forward, fn, DuplicatedNoNeed, *call(Duplicated(x, _onehots(n, x, start, 1)[0])))[0])
        else:
            dirs = _onehots(n, x, start, width)
            tangents = autodiff(Forward, fn, BatchDuplicatedNoNeed, *call(BatchDuplicated(x, dirs)))[0]
            out += tangents[: n - start]
    return tuple(out)


def gradient_(mode: Mode, dx: np.ndarray, f: Any, x: np.ndarray, *args: Any) -> np.ndarray:
    """In-place reverse gradient (Enzyme.jl's ``gradient!``): ``dx`` is zeroed, filled and returned."""
    mode = check_mode(mode, "gradient_")
    if not mode.reverse:
        raise UsageError("gradient_ needs a reverse mode (enzyme.Reverse)")
    fn = as_cfunction(f, "gradient_")
    if not _is_array(x) or not _is_array(dx):
        raise ArgumentTypeError("gradient_: x and dx must be numpy arrays")
    dx[...] = 0
    autodiff(Reverse, fn, Active, Duplicated(x, dx), *args)
    return dx


def jacobian(mode: Mode, f: Any, x: np.ndarray, *args: Any, out: np.ndarray | None = None,
             chunk: int | None = None) -> np.ndarray:
    """The Jacobian of ``f(x, *args)`` with respect to ``x``, shape ``out.shape + x.shape``.

    C functions return arrays through an argument: pass that output array
    among ``args`` and name it again with ``out=`` (the same object), e.g.
    ``jacobian(Forward, lib.g, x, y, n, out=y)`` for ``void g(const double* x,
    double* y, int n)``.  The remaining ``args`` are Const.  ``f`` must write
    every element of ``out``.  Without ``out``, ``f`` returns a scalar and the
    result is its gradient (an array of ``x``'s shape).

    Forward mode computes ``chunk`` columns per call (``BatchDuplicated``;
    ``None``: one column per call).  Reverse mode computes ``chunk`` rows per
    call (batch reverse: the shadows of ``out`` are seeded with unit vectors,
    those of ``x`` receive the rows); ``None``: all rows in one call when
    ``out`` has at most 16 elements, else 16 rows per call.
    """
    mode = check_mode(mode, "jacobian")
    fn = as_cfunction(f, "jacobian")
    if not _is_array(x):
        raise ArgumentTypeError("jacobian: x must be a numpy array")
    if out is None:
        g = gradient(mode, fn, x, *args, chunk=chunk)
        return np.asarray(g).reshape(x.shape)
    slots = [i for i, a in enumerate(args) if a is out]
    if len(slots) != 1:
        raise ArgumentValueError("jacobian: out= must be one of the positional arguments (the same array object), "
                                 "e.g. jacobian(Forward, lib.g, x, y, out=y)")
    if not _is_array(out):
        raise ArgumentTypeError("jacobian: out must be a numpy array")
    slot = slots[0]
    n, m = x.size, out.size
    J = np.zeros((m, n), dtype=np.result_type(x.dtype, out.dtype))
    consts: list[Any] = [a if isinstance(a, Annotation) else Const(a) for a in args]
    if mode.reverse:
        rows = min(max(m, 1), REVERSE_CHUNK) if chunk is None else _chunk(chunk, m)
        for start in range(0, m, rows):
            call = list(consts)
            if rows == 1:
                dx = make_zero(x)
                call[slot] = Duplicated(out, _onehots(m, out, start, 1)[0])
                autodiff(Reverse, fn, Const, Duplicated(x, dx), *call)
                J[start] = dx.reshape(-1)
                continue
            dxs = tuple(make_zero(x) for _ in range(rows))
            call[slot] = BatchDuplicated(out, _onehots(m, out, start, rows))
            autodiff(Reverse, fn, Const, BatchDuplicated(x, dxs), *call)
            for k in range(min(rows, m - start)):
                J[start + k] = dxs[k].reshape(-1)
        return J.reshape(out.shape + x.shape)
    width = _chunk(chunk, n)
    for start in range(0, n, width):
        call = list(consts)
        if width == 1:
            dout = make_zero(out)
            call[slot] = Duplicated(out, dout)
            autodiff(Forward, fn, Const, Duplicated(x, _onehots(n, x, start, 1)[0]), *call)
            J[:, start] = dout.reshape(-1)
        else:
            douts = tuple(make_zero(out) for _ in range(width))
            call[slot] = BatchDuplicated(out, douts)
            autodiff(Forward, fn, Const, BatchDuplicated(x, _onehots(n, x, start, width)), *call)
            for k in range(min(width, n - start)):
                J[:, start + k] = douts[k].reshape(-1)
    return J.reshape(out.shape + x.shape)
