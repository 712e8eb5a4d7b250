"""The ``scanf`` family as data: where the format is, and what a constant format makes the call write.

The values ``sscanf(s, "%lf %d", &x, &n)`` stores are parsed from text: constants to derivatives.  They
overwrite whatever derivative the destinations held, so the engine zeroes the shadow of each destination the
call assigned (``enzyme.ad.scanf_calls``).  Which arguments are written and how many bytes each gets follows
from the format string when it is a constant:

>>> [(w.conversion, w.size) for w in scanf_writes("%lf, %*d %3c %hhd%n %s")]
[('f', 8), ('c', 3), ('d', 1), ('n', 4), ('s', None)]
>>> scanf_writes("%q") is None
True
"""
from __future__ import annotations

from dataclasses import dataclass

from .names import like_target


@dataclass(frozen=True)
class ScanfFunction:
    """``format``: the operand holding the format string; ``first``: the first destination operand."""

    name: str
    format: int
    first: int


SCANF_FUNCTIONS: dict[str, ScanfFunction] = {}
for _prefix in ("", "__isoc99_", "__isoc23_"):
    for _name, _format in (("scanf", 0), ("fscanf", 1), ("sscanf", 1)):
        SCANF_FUNCTIONS[_prefix + _name] = ScanfFunction(_prefix + _name, _format, _format + 1)


def scanf_function(name: str | None) -> ScanfFunction | None:
    """The ``scanf`` family member called ``name`` (``__isoc99_sscanf``...), else None.  The ``v`` forms take a
    ``va_list`` and are not in the family: their destinations cannot be followed."""
    return SCANF_FUNCTIONS.get(like_target(name)) if name else None


@dataclass(frozen=True)
class Written:
    """One assigned destination: its ``conversion`` letter (``f`` for all floating-point ones) and the bytes the
    call stores there (None: as many as the input holds, ``%s`` and ``%[``).  ``counted``: the conversion counts
    in the call's result (every one but ``%n``)."""

    conversion: str
    size: int | None
    counted: bool = True


_INTEGER_SIZES = {"hh": 1, "h": 2, "": 4, "l": 8, "ll": 8, "q": 8, "j": 8, "z": 8, "t": 8}
_FLOAT_SIZES = {"": 4, "l": 8, "L": 16}
_LENGTHS = ("hh", "ll", "h", "l", "q", "j", "z", "t", "L")


def scanf_writes(fmt: str) -> list[Written] | None:
    """The destinations a ``scanf`` format assigns, in argument order; None for what is not understood (``%m``
    allocation, positional ``%1$d`` arguments, unknown conversions)."""
    out: list[Written] = []
    i, n = 0, len(fmt)
    while i < n:
        if fmt[i] != "%":
            i += 1
            continue
        i += 1
        if i < n and fmt[i] == "%":
            i += 1
            continue
        suppressed = i < n and fmt[i] == "*"
        if suppressed:
            i += 1
        start = i
        while i < n and fmt[i].isdigit():
            i += 1
        width = int(fmt[start:i]) if i > start else None
        if i < n and fmt[i] in "$m":
            return None
        length = next((x for x in _LENGTHS if fmt.startswith(x, i)), "")
        i += len(length)
        if i >= n:
            return None
        conv = fmt[i]
        i += 1
        if conv == "[":  # a scanset: ']' right after '[' or '[^' belongs to the set
            if i < n and fmt[i] == "^":
                i += 1
            if i < n and fmt[i] == "]":
                i += 1
            close = fmt.find("]", i)
            if close < 0:
                return None
            i = close + 1
        written: Written
        if conv in "diouxX":
            if length not in _INTEGER_SIZES:
                return None
            written = Written("d", _INTEGER_SIZES[length])
        elif conv in "aAeEfFgG":
            if length not in _FLOAT_SIZES:
                return None
            written = Written("f", _FLOAT_SIZES[length])
        elif conv == "c":
            written = Written("c", (width or 1) * (4 if length == "l" else 1))
        elif conv in "s[":
            written = Written(conv, None)
        elif conv == "p":
            written = Written("p", 8)
        elif conv == "n":
            if length not in _INTEGER_SIZES:
                return None
            written = Written("n", _INTEGER_SIZES[length], counted=False)
        else:
            return None
        if not suppressed:
            out.append(written)
    return out
