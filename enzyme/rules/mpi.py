"""MPI calls pyenzyme differentiates, as data: which operands are buffers, datatypes, reduction operations.

A differentiated call of ``MPI_X`` becomes a call of a helper of ``enzyme/runtime_bodies/mpi.c`` (written against
OpenMPI's ``<mpi.h>``): ``__pyenzyme_mpi_MPI_X_fwd`` in forward mode, ``..._aug`` in the augmented sweep and
``..._rev`` in the reverse sweep, ``..._tan`` for each further direction of a batched forward call
(``helper_name``).  The helpers take the call's operands with each buffer
followed by its shadow; the reverse helper takes the tape the augmented one returned last.

OpenMPI's handles are addresses of globals (``MPI_DOUBLE`` is ``&ompi_mpi_double``), so the datatype and
operation of most calls are known when the derivative is made: ``datatype_kind`` and ``op_kind`` read them.

>>> MPI_CALLS["MPI_Send"].buffers
((0, 2),)
>>> helper_name("MPI_Recv", "rev")
'__pyenzyme_mpi_MPI_Recv_rev'
>>> datatype_kind("ompi_mpi_double"), datatype_kind("ompi_mpi_int"), datatype_kind("ompi_mpi_long_double")
('float', 'integer', None)
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MpiCall:
    """Operand roles of one MPI function (indices into the call's arguments)."""

    #: (buffer, datatype) pairs; the buffer gets its shadow right after it in the helpers' arguments.
    buffers: tuple[tuple[int, int], ...] = ()
    op: int | None = None            # the MPI_Op operand of a reduction
    #: (source, tag) operands of a receive: wildcards there are refused for floating-point data.
    receives_from: tuple[int, int] | None = None
    #: buffers whose contents the call overwrites with data from other ranks (analysis: active after the call).
    written: tuple[int, ...] = ()
    #: why a differentiated call of it is refused (it completes or cancels requests in a way the helpers do not
    #: follow), or None
    refused: str | None = None
    #: has a ``_tan`` helper (forward mode with enzyme_width > 1: the communication of one more direction)
    batched: bool = True


MPI_CALLS: dict[str, MpiCall] = {
    "MPI_Send": MpiCall(buffers=((0, 2),)),
    "MPI_Recv": MpiCall(buffers=((0, 2),), receives_from=(3, 4), written=(0,)),
    "MPI_Sendrecv": MpiCall(buffers=((0, 2), (5, 7)), receives_from=(8, 9), written=(5,)),
    "MPI_Isend": MpiCall(buffers=((0, 2),), batched=False),
    "MPI_Irecv": MpiCall(buffers=((0, 2),), receives_from=(3, 4), written=(0,), batched=False),
    "MPI_Wait": MpiCall(batched=False),
    "MPI_Waitall": MpiCall(batched=False),
    "MPI_Allreduce": MpiCall(buffers=((0, 3), (1, 3)), op=4, written=(1,)),
    "MPI_Reduce": MpiCall(buffers=((0, 3), (1, 3)), op=4, written=(1,)),
    "MPI_Bcast": MpiCall(buffers=((0, 2),), written=(0,)),
    "MPI_Alltoall": MpiCall(buffers=((0, 2), (3, 5)), written=(3,)),
    "MPI_Alltoallv": MpiCall(buffers=((0, 3), (4, 7)), written=(4,)),
}

_OTHER_COMPLETION = ("completes, tests or cancels requests, and the derivative of a request follows MPI_Wait and "
                     "MPI_Waitall only; complete requests with those in differentiated code")
MPI_CALLS.update({name: MpiCall(refused=_OTHER_COMPLETION) for name in (
    "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Waitany", "MPI_Waitsome", "MPI_Request_free",
    "MPI_Cancel", "MPI_Start", "MPI_Startall")})

HELPER_PREFIX = "__pyenzyme_mpi_"

#: OpenMPI's predefined datatypes (``ompi_mpi_<name>`` globals) by what their elements are.
FLOAT_DATATYPES = frozenset({"ompi_mpi_double", "ompi_mpi_float", "ompi_mpi_dblprec", "ompi_mpi_real",
                             "ompi_mpi_real8", "ompi_mpi_real4"})
INTEGER_DATATYPES = frozenset(f"ompi_mpi_{n}" for n in (
    "int", "long", "long_long_int", "short", "char", "signed_char", "unsigned_char", "byte", "unsigned",
    "unsigned_long", "unsigned_long_long", "unsigned_short", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "c_bool", "integer", "logical", "character", "aint", "offset", "count",
    "2int"))
#: Reductions the helpers differentiate on floating-point data.
DIFFERENTIABLE_OPS = {"ompi_mpi_op_sum": "MPI_SUM", "ompi_mpi_op_min": "MPI_MIN", "ompi_mpi_op_max": "MPI_MAX"}

#: Globals that show a module was compiled against OpenMPI's <mpi.h> (the helpers' ABI).
OPENMPI_MARKERS = ("ompi_mpi_comm_world", "ompi_mpi_double", "ompi_mpi_float", "ompi_mpi_op_sum")


def helper_name(call: str, part: str) -> str:
    """The helper of ``call`` for ``part`` (``fwd``, ``tan``, ``aug`` or ``rev``)."""
    return f"{HELPER_PREFIX}{call}_{part}"


def datatype_kind(global_name: str) -> str | None:
    """``float`` (carries derivatives), ``integer`` (carries none) or None (not supported) for a datatype global."""
    if global_name in FLOAT_DATATYPES:
        return "float"
    if global_name in INTEGER_DATATYPES:
        return "integer"
    return None


def mpi_call(name: str | None) -> MpiCall | None:
    """The operand roles of MPI function ``name``, or None if pyenzyme has no derivative for it."""
    return MPI_CALLS.get(name or "")


def is_mpi_function(name: str | None) -> bool:
    """Is ``name`` an MPI (or PMPI) C binding?"""
    return bool(name) and (name or "").startswith(("MPI_", "PMPI_"))
