"""Second derivatives: Hessian-vector products and Hessians, forward mode over reverse (as Enzyme.jl's ``hvp``).

The gradient of ``f(x, *args)`` with respect to ``x`` is differentiated once
more in forward mode, along one direction per generated call or ``chunk``
directions at once (batch forward), so a Hessian of ``n`` unknowns costs
``n / chunk`` calls of a derivative about as expensive as a few gradients.

>>> import numpy as np, enzyme
>>> lib = enzyme.compile('''
... define double @f(ptr %x) {
...   %a = load double, ptr %x
...   %p = getelementptr double, ptr %x, i64 1
...   %b = load double, ptr %p
...   %ab = fmul double %a, %b
...   %y = fmul double %ab, %b
...   ret double %y
... }
... ''')
>>> enzyme.hessian(lib.f, np.array([2.0, 3.0]))          # f = a b^2
array([[0., 6.],
       [6., 4.]])
>>> enzyme.hvp(lib.f, np.array([2.0, 3.0]), np.array([1.0, 0.0]))
array([0., 6.])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..ad.modes import Activity
from .annotations import Annotation, BatchDuplicated, Const, Duplicated
from .differentiation import _plan, as_cfunction, packer
from .errors import ArgumentTypeError, ArgumentValueError
from .library import CFunction
from .plans import Request
from .signature import array_address


def _check(fn: CFunction, x: Any, args: tuple[Any, ...], who: str) -> tuple[Activity, ...]:
    sig = fn.signature
    fn.check_count(1 + len(args), "arguments")
    if sig.ret_kind != "float":
        raise ArgumentTypeError(f"{who}: {fn.name} returns {sig.ret_ir_type}; a Hessian needs a real-valued "
                                "function (its result is the value differentiated twice)")
    if sig.params[0].kind != "pointer" or not isinstance(x, np.ndarray):
        raise ArgumentTypeError(f"{who}: x, the first argument of {fn.name}, must be a numpy array passed as a "
                                "pointer (for a scalar x use gradient of gradient in forward mode)")
    for i, a in enumerate(args, start=2):
        if isinstance(a, Annotation) and not isinstance(a, Const):
            raise ArgumentValueError(f"{who}: argument {i} is {type(a).__name__}; the arguments after x are Const")
    return (Activity.DUP,) + (Activity.CONST,) * len(args)


def _run(fn: CFunction, x: np.ndarray, directions: tuple[np.ndarray, ...], args: tuple[Any, ...],
         acts: tuple[Activity, ...]) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The gradient and one Hessian-vector product per direction, in one generated call."""
    width = len(directions)
    plan = _plan(fn, Request("hvp", acts, width))
    first = Duplicated(x, directions[0]) if width == 1 else BatchDuplicated(x, directions)
    values = packer(fn, acts)([first, *(a.val if isinstance(a, Const) else a for a in args)])
    grad = np.zeros_like(x)
    products = tuple(np.zeros_like(x) for _ in range(width))
    plan.run(values + [array_address(grad), *map(array_address, products)])
    return grad, products


def hvp_and_gradient(f: Any, x: np.ndarray, v: np.ndarray, *args: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(H v, gradient)`` of a real-valued ``f(x, *args)`` at ``x`` (``args`` are Const), one derivative call."""
    fn = as_cfunction(f, "hvp_and_gradient")
    acts = _check(fn, x, args, "hvp_and_gradient")
    grad, (product,) = _run(fn, x, (v,), args, acts)
    return product, grad


def hvp(f: Any, x: np.ndarray, v: np.ndarray, *args: Any) -> np.ndarray:
    """The Hessian of a real-valued ``f(x, *args)`` at ``x`` times ``v`` (``args`` are Const), as Enzyme.jl's
    ``hvp(f, x, v)``; ``v`` has the shape and dtype of ``x``."""
    fn = as_cfunction(f, "hvp")
    acts = _check(fn, x, args, "hvp")
    return _run(fn, x, (v,), args, acts)[1][0]


def hessian(f: Any, x: np.ndarray, *args: Any, chunk: int | None = None) -> np.ndarray:
    """The Hessian of a real-valued ``f(x, *args)`` at ``x``, shape ``x.shape + x.shape`` (``args`` are Const).

    Column ``j`` is the Hessian-vector product with the ``j``-th unit vector;
    ``chunk`` columns are computed per generated call (batch forward over
    reverse; ``None``: up to 8).
    """
    fn = as_cfunction(f, "hessian")
    acts = _check(fn, x, args, "hessian")
    n = x.size
    if chunk is not None and (not isinstance(chunk, (int, np.integer)) or chunk < 1):
        raise ArgumentValueError(f"hessian: chunk must be a positive integer, not {chunk!r}")
    width = max(1, min(n, 8 if chunk is None else int(chunk)))
    H = np.zeros((n, n), dtype=x.dtype)
    for start in range(0, n, width):
        directions = []
        for k in range(width):
            e = np.zeros_like(x)
            if start + k < n:
                e.flat[start + k] = 1
            directions.append(e)
        _, products = _run(fn, x, tuple(directions), args, acts)
        for k in range(min(width, n - start)):
            H[:, start + k] = products[k].reshape(-1)
    return H.reshape(x.shape + x.shape)
