"""Spelling of LLVM identifiers: which names need quotes, and escaping."""
from __future__ import annotations

import re

_BARE = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*\Z")
_ESCAPE = re.compile(r'[^\x20-\x7e]|["\\]')


def quote_name(name: str) -> str:
    """``name`` as it follows ``%``/``@``: bare when legal, else quoted and escaped."""
    if _BARE.match(name) or name.isdigit():  # digits: a numbered (unnamed) global or type
        return name
    return '"' + escape_string(name) + '"'


def escape_string(s: str) -> str:
    """Escape a string for LLVM's ``"..."`` syntax (bytes outside printable ASCII as ``\\XX``)."""
    def esc(m: re.Match[str]) -> str:
        return "".join(f"\\{b:02X}" for b in m.group(0).encode("utf-8", "surrogateescape"))
    return _ESCAPE.sub(esc, s)


_UNESCAPE = re.compile(rb"\\([0-9A-Fa-f]{2}|\\)")


def unescape_string(s: str) -> str:
    """Inverse of :func:`escape_string` (LLVM quoted names are byte strings)."""
    if "\\" not in s:
        return s
    raw = s.encode("utf-8")
    out = _UNESCAPE.sub(lambda m: b"\\" if m.group(1) == b"\\" else bytes([int(m.group(1), 16)]), raw)
    return out.decode("utf-8", errors="surrogateescape")
