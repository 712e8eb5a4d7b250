"""Errors of the Python API that are also the built-in exception a Python user expects.

A wrong dtype is a ``TypeError`` and a wrong shape a ``ValueError`` to any
Python code, and a :class:`~enzyme.errors.UsageError` to code that catches
pyenzyme's errors; both hierarchies hold.
"""
from __future__ import annotations

from ..errors import UsageError


class ArgumentTypeError(UsageError, TypeError):
    """An argument has the wrong type or dtype (names the parameter)."""


class ArgumentValueError(UsageError, ValueError):
    """An argument has the wrong shape, count, layout or range (names the parameter)."""
