"""The Rosenbrock function and its gradient, computed by a C extension differentiated by pyenzyme.

>>> from rosenbrock_ad import gradient, rosenbrock
>>> rosenbrock([1.0, 1.0]), gradient([1.0, 1.0])
(0.0, [0.0, 0.0])
"""
from __future__ import annotations

from rosenbrock_ad._core import gradient, rosenbrock

__all__ = ["gradient", "rosenbrock"]
