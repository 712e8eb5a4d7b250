"""Runtime-library functions differentiated through a body pyenzyme supplies (enzyme/runtime_bodies).

flang's runtime ships no bitcode; for the entry points below, ``enzyme.runtime_bodies`` links a
body named ``body_name(name)`` into the module, and a call of ``name`` is differentiated as a
call of that body.

>>> body_name("_FortranAAssign")
'__pyenzyme_body__FortranAAssign'
>>> body_name("_FortranAioOutputReal64") is None
True
"""
from __future__ import annotations

BODY_PREFIX = "__pyenzyme_body_"

FORTRAN_ENTRIES = frozenset({
    "_FortranAAssign", "_FortranASumReal8", "_FortranAProductReal8", "_FortranAMaxvalReal8",
    "_FortranAMinvalReal8", "_FortranADotProductReal8", "_FortranAMatmulReal8Real8", "_FortranATranspose",
    "_FortranAReshape", "_FortranAInitialize", "_FortranADestroy",
})

# Called by the bodies where a case is not handled: prints the call and its source line, then aborts.
UNSUPPORTED = "__pyenzyme_fortran_unsupported"


def body_name(name: str) -> str | None:
    """The name of the body standing for runtime function ``name``, or None if it has none."""
    return BODY_PREFIX + name if name in FORTRAN_ENTRIES else None
