"""The MPI table (enzyme.rules.mpi): consistent with its helpers in enzyme/runtime_bodies/mpi.c and read the same
way by the engine's call classifier and the analyses."""
from __future__ import annotations

import doctest
import re
from pathlib import Path

import enzyme.rules.mpi as mpi
from enzyme.ad.call_kinds import CallKind, classify_call
from enzyme.ad.modes import Mode
from enzyme.analysis import known_functions as known
from enzyme.ir import CallInst, parse_module
from enzyme.rules.inactive import is_known_inactive

HELPERS = Path(mpi.__file__).resolve().parent.parent / "runtime_bodies" / "mpi.c"


def test_docstring_examples() -> None:
    failed, attempted = doctest.testmod(mpi)
    assert attempted > 0 and failed == 0


def test_every_differentiated_call_has_its_three_helpers() -> None:
    source = HELPERS.read_text()
    defined = set(re.findall(r"__pyenzyme_mpi_(MPI_\w+)_(fwd|aug|rev)\(", source))
    for name, spec in mpi.MPI_CALLS.items():
        parts = {part for call, part in defined if call == name}
        assert parts == (set() if spec.refused else {"fwd", "aug", "rev"}), name


def test_operand_roles_are_distinct_and_buffers_come_before_their_datatypes() -> None:
    for name, spec in mpi.MPI_CALLS.items():
        for buf, dt in spec.buffers:
            assert buf < dt, name
        assert set(spec.written) <= {b for b, _ in spec.buffers}, name


def test_datatypes_and_operations() -> None:
    assert mpi.datatype_kind("ompi_mpi_float") == "float"
    assert mpi.datatype_kind("ompi_mpi_long") == "integer"
    assert mpi.datatype_kind("ompi_mpi_c_double_complex") is None  # refused, not treated as integers
    assert set(mpi.DIFFERENTIABLE_OPS.values()) == {"MPI_SUM", "MPI_MIN", "MPI_MAX"}


_MODULE = """
@ompi_mpi_double = external global [8 x i8]
@ompi_mpi_comm_world = external global [8 x i8]
declare i32 @MPI_Send(ptr, i32, ptr, i32, i32, ptr)
declare i32 @MPI_Comm_rank(ptr, ptr)
declare i32 @MPI_Barrier(ptr)
declare i32 @MPI_Gather(ptr, i32, ptr, ptr, i32, ptr, i32, ptr)
define void @f(ptr %x, ptr %r) {
  %a = call i32 @MPI_Send(ptr %x, i32 1, ptr @ompi_mpi_double, i32 0, i32 0, ptr @ompi_mpi_comm_world)
  %b = call i32 @MPI_Comm_rank(ptr @ompi_mpi_comm_world, ptr %r)
  %c = call i32 @MPI_Barrier(ptr @ompi_mpi_comm_world)
  %d = call i32 @MPI_Gather(ptr %x, i32 1, ptr @ompi_mpi_double, ptr %x, i32 1, ptr @ompi_mpi_double, i32 0, ptr @ompi_mpi_comm_world)
  ret void
}
"""


def test_engine_and_analyses_classify_mpi_calls_alike() -> None:
    module = parse_module(_MODULE)
    calls = {i.callee_name: i for i in module.get_function("f").instructions() if isinstance(i, CallInst)}
    kinds = {name: classify_call(module, call, Mode.REVERSE).kind for name, call in calls.items()}
    assert kinds == {"MPI_Send": CallKind.MPI, "MPI_Comm_rank": CallKind.INACTIVE, "MPI_Barrier": CallKind.INACTIVE,
                     "MPI_Gather": CallKind.UNKNOWN}
    assert known.call_kind("MPI_Send") == "communication" and is_known_inactive("MPI_Comm_size")
    send = calls["MPI_Send"]
    assert known.communication_buffers("MPI_Send", send.args) == [(send.args[0], False)]
