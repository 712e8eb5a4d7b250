"""Tokens of LLVM's textual IR."""
from __future__ import annotations

import re
from typing import NamedTuple

_NAME = r'(?:[-a-zA-Z$._0-9]+|"[^"]*")'
# Block labels start a line (LLVM prints them unindented); checked once per line.
_LABEL = re.compile(r'(?:[-a-zA-Z$._0-9]+|"[^"]*"):(?![:\w])')
_TOKEN = re.compile(r"""[ \t\r]*(?:
    (?P<nl>(?:;[^\n]*)?(?:\n|\Z))
  | (?P<local>%""" + _NAME + r""")
  | (?P<global>@""" + _NAME + r""")
  | (?P<dbg>\#dbg_[a-z_]+)
  | (?P<attrgrp>\#\d+)
  | (?P<meta>!(?:[-a-zA-Z$._0-9\\]+|"[^"]*"))
  | (?P<comdat>\$""" + _NAME + r""")
  | (?P<cstr>c"[^"]*")
  | (?P<str>"[^"]*")
  | (?P<num>-?(?:0x[KLMHR]?[0-9A-Fa-f]+|[us]0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?))
  | (?P<word>[a-zA-Z_][a-zA-Z0-9_.]*)
  | (?P<punct>\.\.\.|[()\[\]{}<>,=*:!|])
)""", re.VERBOSE)


class Token(NamedTuple):
    kind: str      # local, global, dbg, attrgrp, meta, comdat, cstr, str, num, word, punct, label, eof
    text: str
    start: int     # offset in the source text
    end: int
    line_start: bool  # first token on its line


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Tokens of ``text[start:end]`` (offsets refer to ``text``); comments dropped."""
    if end is None:
        end = len(text)
    out: list[Token] = []
    append = out.append
    line_start = True
    pos = start
    lm = _LABEL.match(text, pos, end)
    if lm is not None:
        append(tuple.__new__(Token, ("label", lm.group(), pos, lm.end(), True)))
        pos = lm.end()
        line_start = False
    match = _TOKEN.match
    new = tuple.__new__
    while pos < end:
        m = match(text, pos, end)
        if m is None:
            from ..errors import IRParseError
            line = text.count("\n", 0, pos) + 1
            raise IRParseError(f"line {line}: unexpected character {text[pos]!r}")
        kind = m.lastgroup
        assert kind is not None  # every alternative of _TOKEN is a named group
        if kind == "nl":
            line_start = True
            if m.end() == pos:  # end of input
                break
            pos = m.end()
            lm = _LABEL.match(text, pos, end)
            if lm is not None:
                append(new(Token, ("label", lm.group(), pos, lm.end(), True)))
                pos = lm.end()
                line_start = False
            continue
        pos = m.end()
        append(new(Token, (kind, m.group(kind), m.start(kind), pos, line_start)))
        line_start = False
    append(Token("eof", "", end, end, True))
    return out
