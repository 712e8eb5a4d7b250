"""Runtime-library functions differentiated through a body pyenzyme supplies (enzyme/runtime_bodies).

flang's runtime ships no bitcode, and the C library's qsort moves user data only its code shows
(enzyme/runtime_bodies/libc.c); for the entry points below, ``enzyme.runtime_bodies`` links a
body named ``body_name(name)`` into the module, and a call of ``name`` is differentiated as a
call of that body.

>>> body_name("_FortranAAssign")
'__pyenzyme_body__FortranAAssign'
>>> body_name("_FortranAioOutputReal64") is None
True
"""
from __future__ import annotations

BODY_PREFIX = "__pyenzyme_body_"

_REAL_KINDS = ("Real4", "Real8")
FORTRAN_ENTRIES = frozenset({
    *(f"_FortranA{op}{kind}" for kind in _REAL_KINDS for op in ("Sum", "Product", "Maxval", "Minval", "DotProduct")),
    *(f"_FortranAMatmul{kind}{kind}" for kind in _REAL_KINDS),
    "_FortranANorm2_4", "_FortranANorm2_8", "_FortranASpread", "_FortranAAllocatableSetBounds",
    "_FortranAAllocatableAllocate", "_FortranAAllocatableDeallocate", "_FortranASumDim",
    "_FortranACshiftVector", "_FortranACshift", "_FortranAMaxvalDim", "_FortranAMinvalDim", "_FortranAPack",
    "_FortranAEoshiftVector", "_FortranAEoshift", "_FortranAUnpack",
    "_FortranAAssign", "_FortranAAssignTemporary", "_FortranACopyInAssign", "_FortranACopyOutAssign",
    "_FortranACreateDescriptorStack", "_FortranAPushDescriptor", "_FortranADescriptorAt",
    "_FortranADestroyDescriptorStack",
    "_FortranATranspose",
    "_FortranAReshape", "_FortranAInitialize", "_FortranADestroy", "_FortranADestroyWithoutFinalization",
    "_FortranAInitArrayConstructorVector",
    "_FortranAPushArrayConstructorValue", "_FortranAPushArrayConstructorSimpleScalar",
})

# Helpers of the bodies that access memory at offsets known only at run time: the byte copy of data that carries
# no derivative (integer, logical and character elements, descriptor words) and the accesses to derived-type
# components (at offsets read from flang's type descriptions).  Type analysis does not carry what their bodies
# do back to their callers: merged over all calls, the types would conflict and spoil the callers' descriptors.
TYPELESS_HELPERS = frozenset({
    "__pyenzyme_fortran_copy_inactive", "__pyenzyme_fortran_initialize_component", "__pyenzyme_fortran_free_component",
    "__pyenzyme_fortran_establish_component",
    "__pyenzyme_fortran_copy_derived", "__pyenzyme_fortran_derived_type", "__pyenzyme_fortran_copy_floats",
    "__pyenzyme_fortran_dim", "__pyenzyme_fortran_sum_dim_float", "__pyenzyme_fortran_sum_dim_double",
    "__pyenzyme_fortran_extreme_dim_float", "__pyenzyme_fortran_extreme_dim_double",
})

# C library functions with a body in libc.c.
LIBC_ENTRIES = frozenset({"qsort", "qsort_r", "bsearch"})
# Checkpointed loops (<enzyme/checkpoint.h>): runtime_bodies/checkpoint.c drives their schedule.
CHECKPOINT_ENTRIES = frozenset({"__enzyme_checkpoint_for", "__enzyme_checkpoint_while"})

# Called by the bodies where a case is not handled: prints the call and its source line, then aborts.
UNSUPPORTED = "__pyenzyme_fortran_unsupported"


def body_name(name: str) -> str | None:
    """The name of the body standing for runtime function ``name``, or None if it has none."""
    return BODY_PREFIX + name if name in FORTRAN_ENTRIES or name in LIBC_ENTRIES else None
