"""Finite-difference checks of Enzyme derivatives, for users' own test suites (EnzymeTestUtils for Python).

* :func:`test_forward` / :func:`test_reverse`: differentiate ``f`` with
  :func:`enzyme.autodiff` and compare the primal result, the arguments' contents
  after the call and every derivative with finite differences.
* :func:`gradcheck`: both of them in one line, activities translated per mode.
* :func:`central_fdm`, :func:`forward_fdm`, :func:`backward_fdm`: the
  finite-difference methods (adaptive step, see :mod:`enzyme.testing.fdm`).
* A pytest plugin (:mod:`enzyme.testing.pytest_plugin`, loaded automatically
  once pyenzyme is installed) with the ``enzyme_lib`` and ``gradcheck`` fixtures.

Example (a C function ``double f(double x, double y) { return x * x * y; }``)::

    import numpy as np, enzyme
    from enzyme import Active, Const, Duplicated
    from enzyme.testing import test_forward, test_reverse

    lib = enzyme.compile(["f.c"])
    test_reverse(lib.f, Active, (1.5, Active), 2.0)       # y is Const
    test_forward(lib.f, Duplicated, (1.5, Duplicated), (2.0, Duplicated))

Arguments are plain values (Const), annotations (``Duplicated(x, dx)`` uses ``dx``
as the direction or seed) or ``(value, Activity)`` pairs whose directions are
drawn at random from ``rng`` (fixed seed by default).  A mismatch raises
``AssertionError`` naming the argument, the mode, the expected and computed
values and the largest absolute and relative errors.
"""
from __future__ import annotations

from .fdm import FiniteDifferenceMethod, backward_fdm, central_fdm, forward_fdm
from .forward import test_forward
from .gradcheck import gradcheck
from .reverse import test_reverse

__all__ = [
    "FiniteDifferenceMethod",
    "backward_fdm",
    "central_fdm",
    "forward_fdm",
    "gradcheck",
    "test_forward",
    "test_reverse",
]
