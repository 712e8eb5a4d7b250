"""Library globals that never hold derivatives, known by name.

Rust's ``std::collections::HashMap::new()`` seeds each map's SipHash keys from a thread-local pair of ``u64``
(``std::hash::random::RandomState::new::KEYS``): it reads them and bumps the first, so the next map hashes
differently.  Only integers pass through it -- hash seeds, never a value that depends on an input -- but the
map struct that receives the keys also holds the table's control pointer, whose buckets hold the mapped
floats, so activity analysis cannot tell the seed from the data by itself.  Treating the global as inactive
(as ``enzyme_inactive`` on a C global would) gives it no shadow and leaves its loads and stores alone.
"""
from __future__ import annotations

import re

#: What each known global is, for messages and docs.
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # v0 mangling (`_RNv...11RandomState3new4KEYS...`) and the legacy one (`..11RandomState3new4KEYS...`).
    (re.compile(r"11RandomState3new4KEYS"), "Rust std RandomState's thread-local SipHash seed (two u64)"),
)


def inactive_global_reason(name: str | None) -> str | None:
    """Why the global called ``name`` never carries derivatives, or None when it is not a known one."""
    if not name:
        return None
    for pattern, why in _RULES:
        if pattern.search(name):
            return why
    return None
