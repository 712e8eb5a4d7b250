"""Differentiable bodies for runtime-library calls that ship no bitcode (flang's runtime).

flang-22 calls its C++ runtime for array assignment (``_FortranAAssign``, ``AssignTemporary``:
allocatable and array-section assignment at -O0, reallocating assignment at every level), for
derived types (``Initialize``, ``Destroy``, ALLOCATE/DEALLOCATE through ``AllocatableSetBounds``,
``AllocatableAllocate``, ``AllocatableDeallocate``), for array constructors of run-time size
(``InitArrayConstructorVector``, ``PushArrayConstructorValue``/``SimpleScalar``), for SPREAD and
NORM2 at every level and, at -O0, for MATMUL, TRANSPOSE, RESHAPE, SUM, PRODUCT, MAXVAL, MINVAL
and DOT_PRODUCT (REAL(4) and REAL(8)).  ``fortran.c`` beside this file implements them over
flang's array descriptors and type descriptions; a module that declares one of them gets the
bodies linked in (as ``__pyenzyme_body_<name>``), and the engine differentiates a call of
``<name>`` through that body (``ad.call_kinds``) while the program itself keeps calling the
runtime.  A case a body does not handle stops the derivative at run time with a message naming
the call and its source line.  ``libc.c`` does the same for the C library's ``qsort``, whose
permutation the derivative must follow.  ``checkpoint.c`` drives the schedules of checkpointed loops
(``__enzyme_checkpoint_for``/``_while``, enzyme.ad.checkpoint).  ``mpi.c`` holds the derivatives of MPI calls (enzyme.rules.mpi):
helpers the engine calls in place of each differentiated MPI call, compiled against OpenMPI's <mpi.h>
(``mpicc --showme:compile``) and linked into modules built against it.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from enzyme import llvm
from enzyme.rules.mpi import MPI_CALLS, OPENMPI_MARKERS
from enzyme.rules.runtime_bodies import CHECKPOINT_ENTRIES, FORTRAN_ENTRIES, LIBC_ENTRIES

SOURCE = Path(__file__).with_name("fortran.c")
#: Each source of bodies and the functions it has bodies of.
SOURCES = ((SOURCE, FORTRAN_ENTRIES), (Path(__file__).with_name("libc.c"), LIBC_ENTRIES),
           (Path(__file__).with_name("checkpoint.c"), CHECKPOINT_ENTRIES))
MPI_SOURCE = Path(__file__).with_name("mpi.c")


def with_runtime_bodies(module: llvm.ModuleRef, *, name: str) -> llvm.ModuleRef:
    """``module``, or a copy linked with the bodies when it declares a runtime function that has one and asks
    for derivatives (an ``__enzyme_*`` entry point)."""
    declared = {fn.name for fn in module.functions if fn.is_declaration}
    needed = [source for source, entries in SOURCES if not declared.isdisjoint(entries)]
    if not declared.isdisjoint(MPI_CALLS) and _built_against_openmpi(module):
        needed.append(MPI_SOURCE)
    if not needed or not any("__enzyme_" in (n or "") for n in declared):
        return module  # nothing to differentiate through them: the module stays as it is
    return llvm.link([(name, llvm.to_bitcode(module)),
                      *((f"pyenzyme's runtime bodies ({source.name})", _bodies_bitcode(source)) for source in needed)])


def _built_against_openmpi(module: llvm.ModuleRef) -> bool:
    return any(g.name in OPENMPI_MARKERS for g in module.global_variables)


def _bodies_bitcode(source: Path) -> bytes:
    from enzyme import toolchain  # compilers are only needed when a module calls the runtime
    from enzyme.toolchain.cache import cached_entry

    flags: tuple[str, ...] = ()
    if source == MPI_SOURCE:
        from enzyme.toolchain.mpi import mpi_compile_flags
        flags = mpi_compile_flags()
    digest = hashlib.sha256(source.read_bytes() + " ".join(flags).encode()).hexdigest()[:16]
    clang = toolchain.find_tool("clang")
    output = source.with_suffix(".bc").name

    def build(directory: Path) -> None:
        # No vectorizing or unrolling before AD, as for user code.
        toolchain.compile_to_bitcode(source, directory / output, opt_level=2, flags=flags)

    return (cached_entry(f"runtime-bodies-{source.stem}-{clang.version}-{digest}", build) / output).read_bytes()
