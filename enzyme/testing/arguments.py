"""Arguments of ``test_forward``/``test_reverse``: parsing, random shadows, fresh copies per call.

Each argument is given as
* a plain value: ``Const`` (never differentiated);
* an annotation instance, e.g. ``Duplicated(x, dx)``: its shadow(s) are used as given
  (forward: the tangent direction; reverse: the seed on the array's final contents);
* a pair ``(value, ActivityType)``, e.g. ``(x, Duplicated)``: shadows are drawn at random.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..api.annotations import (
    Active,
    Annotation,
    BatchDuplicated,
    BatchDuplicatedNoNeed,
    Const,
    Duplicated,
    DuplicatedNoNeed,
)
from ..errors import UsageError

DEFAULT_SEED = 20250101
DEFAULT_BATCH_WIDTH = 2


@dataclass
class Argument:
    """One argument of the function under test."""

    index: int
    name: str | None
    value: Any
    activity: type[Annotation]
    # Shadows given by the user (annotation instance) or drawn at random; () for Const/Active.
    shadows: tuple[Any, ...] = ()

    @property
    def is_array(self) -> bool:
        return isinstance(self.value, np.ndarray)

    @property
    def is_float(self) -> bool:
        return _is_float(self.value)

    @property
    def is_batch(self) -> bool:
        return issubclass(self.activity, BatchDuplicated)

    @property
    def has_shadow(self) -> bool:
        return issubclass(self.activity, (Duplicated, BatchDuplicated))

    @property
    def no_need(self) -> bool:
        return issubclass(self.activity, (DuplicatedNoNeed, BatchDuplicatedNoNeed))

    @property
    def label(self) -> str:
        name = f" {self.name!r}" if self.name else ""
        # 1-based, as the API's own messages ("argument 1 (double) of f")
        return f"argument {self.index + 1}{name} ({self.activity.__name__})"

    def fresh_value(self) -> Any:
        """A copy of the primal value, so each call starts from the same inputs."""
        return _copy(self.value)

    def annotation(self, value: Any, shadows: Sequence[Any]) -> Annotation:
        """This argument's annotation around ``value`` with ``shadows``."""
        cls = self.activity
        if issubclass(cls, BatchDuplicated):
            return cls(value, tuple(shadows))
        if issubclass(cls, Duplicated):
            return cls(value, shadows[0])
        return cls(value)


def _is_float(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        return np.issubdtype(value.dtype, np.floating)
    return isinstance(value, (float, np.floating))


def _copy(value: Any) -> Any:
    return value.copy() if isinstance(value, np.ndarray) else value


def parameter_names(f: Callable[..., Any], count: int) -> list[str | None]:
    """Names of ``f``'s parameters when known (a Library callable's ``param_names`` or a Python signature)."""
    names = getattr(f, "param_names", None) or getattr(f, "arg_names", None)
    if names is None:
        try:
            names = [p.name for p in inspect.signature(f).parameters.values()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            names = []
    names = [n if isinstance(n, str) and n else None for n in names]
    return (names + [None] * count)[:count]


def function_name(f: Callable[..., Any]) -> str:
    return str(getattr(f, "name", None) or getattr(f, "__name__", None) or repr(f))


def make_rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    """``rng`` as a Generator: None gives a fixed seed (reproducible failures), an int seeds a new one."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng(DEFAULT_SEED)
    if isinstance(rng, (int, np.integer)):
        return np.random.default_rng(int(rng))
    raise UsageError(f"rng must be a numpy Generator, an int seed or None, got {type(rng).__name__}")


def random_like(value: Any, rng: np.random.Generator) -> Any:
    """A standard-normal value of the same shape and floating type as ``value``."""
    if isinstance(value, np.ndarray):
        shape: tuple[int, ...] = value.shape
        return rng.standard_normal(shape).astype(value.dtype)
    if isinstance(value, np.floating):
        return type(value)(rng.standard_normal())
    return float(rng.standard_normal())


def _activity_class(spec: Any) -> type[Annotation] | None:
    return spec if isinstance(spec, type) and issubclass(spec, Annotation) else None


def parse_arguments(f: Callable[..., Any], args: Sequence[Any], *, mode_name: str) -> list[Argument]:
    """Arguments from the ``*args`` of test_forward/test_reverse (shadows not yet drawn)."""
    names = parameter_names(f, len(args))
    parsed: list[Argument] = []
    for index, (raw, name) in enumerate(zip(args, names)):
        shadows: tuple[Any, ...] = ()
        if isinstance(raw, Annotation):
            activity: type[Annotation] = type(raw)
            value = raw.val
            if isinstance(raw, BatchDuplicated):
                shadows = tuple(raw.dvals)
            elif isinstance(raw, Duplicated):
                shadows = (raw.dval,)
        elif isinstance(raw, tuple) and len(raw) == 2 and _activity_class(raw[1]) is not None:
            value, activity = raw[0], raw[1]
        elif _activity_class(raw) is not None:
            raise UsageError(
                f"{mode_name}: argument {index + 1} is the activity {raw.__name__} without a value; "
                f"pass ({raw.__name__.lower()}_value, {raw.__name__}) or {raw.__name__}(value, ...)")
        else:
            value, activity = raw, Const
        argument = Argument(index, name, value, activity, shadows)
        _validate(argument, mode_name)
        parsed.append(argument)
    return parsed


def _validate(arg: Argument, mode_name: str) -> None:
    if arg.activity is Const:
        return
    if not arg.is_float:
        raise UsageError(
            f"{mode_name}: {arg.label} is not floating point ({type(arg.value).__name__}); "
            f"only float scalars and float arrays can be active, pass it plainly (Const)")
    if arg.activity is Active and arg.is_array:
        raise UsageError(f"{mode_name}: {arg.label} is an array; arrays are Duplicated, Active is for scalars")
    for shadow in arg.shadows:
        if arg.is_array and (not isinstance(shadow, np.ndarray) or shadow.shape != arg.value.shape
                             or shadow.dtype != arg.value.dtype):
            raise UsageError(
                f"{mode_name}: {arg.label}: shadow must be an array of shape {arg.value.shape} and dtype "
                f"{arg.value.dtype}, got {getattr(shadow, 'shape', type(shadow).__name__)}")


def batch_width(arguments: Sequence[Argument], return_activity: type[Annotation], mode_name: str) -> int:
    """The number of shadows per Duplicated argument: 1, or the common width of the batch annotations."""
    widths = {len(a.shadows) for a in arguments if a.is_batch and a.shadows}
    if len(widths) > 1:
        raise UsageError(f"{mode_name}: batch annotations have different widths {sorted(widths)}; give them all "
                         f"the same number of shadows")
    batch = issubclass(return_activity, BatchDuplicated) or any(a.is_batch for a in arguments)
    if not batch:
        return 1
    return widths.pop() if widths else DEFAULT_BATCH_WIDTH


def draw_shadows(arguments: Sequence[Argument], width: int, rng: np.random.Generator) -> None:
    """Random shadows for active arguments given without them (in argument order, so a seed reproduces them)."""
    for arg in arguments:
        if arg.has_shadow and not arg.shadows:
            count = width if arg.is_batch else 1
            arg.shadows = tuple(random_like(arg.value, rng) for _ in range(count))


def copy_shadows(arg: Argument) -> list[Any]:
    return [_copy(s) for s in arg.shadows]
