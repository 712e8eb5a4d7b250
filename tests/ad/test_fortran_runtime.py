"""Fortran array code that calls flang's runtime (tests/ad/fortran): assignment, MATMUL, TRANSPOSE, RESHAPE,
DOT_PRODUCT and masked reductions, differentiated through pyenzyme's bodies of those entry points
(enzyme/runtime_bodies/fortran.c) at -O0...-O3; each program checks reverse and forward mode against central
differences.  Cases the bodies do not handle stop with a message naming the call and its source line."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from enzyme import llvm, toolchain
from enzyme.errors import DifferentiationError
from enzyme.pipeline import CompileOptions, TransformOptions, compile_sources, transform_module
from enzyme.toolchain.flang import runtime_archive

PROGRAMS = Path(__file__).parent / "fortran"


def build(tmp_path: Path, name: str, opt_level: int) -> Path:
    """The differentiated program ``name`` (``name.f90`` with its C driver ``name_main.c``)."""
    sources = [PROGRAMS / f"{name}.f90", PROGRAMS / f"{name}_main.c"]
    module = compile_sources(sources, CompileOptions(opt_level=opt_level))
    result = transform_module(module, TransformOptions(postopt_level=opt_level))
    (tmp_path / "prog.bc").write_bytes(llvm.to_bitcode(result))
    obj = toolchain.compile_ir_object(tmp_path / "prog.bc", tmp_path / "prog.o", opt_level=opt_level)
    return toolchain.link_executable([obj], tmp_path / "prog",
                                     libraries=[str(runtime_archive()), "-lstdc++", "-lm"])


def run(exe: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_array_runtime_gradients(tmp_path: Path, opt_level: int) -> None:
    result = run(build(tmp_path, "array_runtime", opt_level))
    assert result.returncode == 0, result.stdout + result.stderr
    checked = [line for line in result.stdout.splitlines() if "central" in line]
    assert len(checked) == 6 + 18 + 6 and not any("WRONG" in line for line in checked), result.stdout


@pytest.mark.parametrize("opt_level", [0, 2])
def test_select_and_shift_gradients(tmp_path: Path, opt_level: int) -> None:
    """MAXVAL/MINVAL with DIM=, PACK (with VECTOR=) and EOSHIFT (with BOUNDARY=) through their bodies."""
    result = run(build(tmp_path, "select_shift", opt_level))
    assert result.returncode == 0, result.stdout + result.stderr
    checked = [line for line in result.stdout.splitlines() if "central" in line]
    assert len(checked) == 8 and not any("WRONG" in line for line in checked), result.stdout


def test_runtime_entry_without_a_body_is_refused_by_name(tmp_path: Path) -> None:
    """At -O0 PRODUCT with DIM= is a call of _FortranAProductDim, which has no body: refused while compiling."""
    source = tmp_path / "rotate.f90"
    source.write_text("""
function rotated_energy(x, n) result(e) bind(C, name="rotated_energy")
  use iso_c_binding
  integer(c_int), value :: n
  real(c_double), intent(in) :: x(n)
  real(c_double) :: e
  e = sum(product(spread(x, 1, 2), dim=1)**2)
end function
""")
    driver = tmp_path / "rotate_main.c"
    driver.write_text("extern int enzyme_dup, enzyme_const;\ndouble __enzyme_autodiff(void *, ...);\n"
                      "double rotated_energy(const double *, int);\n"
                      "int main(void) { double x[3] = {1, 2, 3}, dx[3] = {0};\n"
                      "  __enzyme_autodiff((void *)rotated_energy, enzyme_dup, x, dx, enzyme_const, 3); return 0; }\n")
    module = compile_sources([source, driver], CompileOptions(opt_level=0))
    with pytest.raises(DifferentiationError, match=r"@rotated_energy: @_FortranAProductDim has no body"):
        transform_module(module, TransformOptions(postopt_level=0))


@pytest.mark.parametrize("opt_level", [0, 2])
def test_module_arrays_allocated_before_the_derivative(tmp_path: Path, opt_level: int) -> None:
    """Allocatable module arrays reassigned (same shape) inside the differentiated function, which has run before:
    their automatic shadows are set up like them at each derivative call (enzyme.driver.allocated_globals); before,
    the derivative stored through a null shadow.  Also CSHIFT and EOSHIFT with DIM= of a 2-D array (runtime calls
    at -O0), MAXVAL and SUM with DIM= and MASK=, ANY with DIM=.  Reverse, forward, batched forward and split mode."""
    result = run(build(tmp_path, "module_state", opt_level))
    assert result.returncode == 0, result.stdout + result.stderr
    checked = [line for line in result.stdout.splitlines() if "central" in line]
    assert len(checked) == 13 and not any("WRONG" in line for line in checked), result.stdout


@pytest.mark.parametrize("opt_level", [0, 2])
def test_character_and_integer_intrinsics_and_unpack(tmp_path: Path, opt_level: int) -> None:
    """SELECT CASE (TRIM(name)), SUM of integers (-O0: _FortranASumInteger4), a CHARACTER(LEN=*) dummy given a
    literal copied into a derived type's component, UNPACK with a scalar FIELD: before, refused (TRIM and
    SumInteger4 had no body; the character copy "may hold pointers"; UNPACK had no body)."""
    result = run(build(tmp_path, "names_unpack", opt_level))
    assert result.returncode == 0, result.stdout + result.stderr
    checked = [line for line in result.stdout.splitlines() if "central" in line]
    assert len(checked) == 8 and not any("WRONG" in line for line in checked), result.stdout


@pytest.mark.parametrize("opt_level", [0, 2])
def test_allocatable_array_component_of_derived_type(tmp_path: Path, opt_level: int) -> None:
    """A local whose allocatable component is an array of another derived type: its default initialization copies
    a constant holding the element type's description (was refused: "may hold pointers"), and its deallocation
    frees that component (was stopped at run time: derived-type components in _FortranADestroy)."""
    result = run(build(tmp_path, "derived_array_component", opt_level))
    assert result.returncode == 0, result.stdout + result.stderr
    checked = [line for line in result.stdout.splitlines() if "central" in line]
    assert len(checked) == 8 and not any("WRONG" in line for line in checked), result.stdout


@pytest.mark.parametrize("opt_level", [0, 2])
def test_copy_in_out_and_forall_descriptor_stack(tmp_path: Path, opt_level: int) -> None:
    """A strided section passed to an assumed-size legacy dummy (IS_CONTIGUOUS, copy-in/copy-out), a FORALL
    through pointer components (flang's descriptor stack), constant array constructors at -O0 (a descriptor
    pointing at a constant table, given a zeroed shadow table), a COMMON block with an array indexed by a variable
    beside an integer counter (type analysis took the counter for a double): before, refused at every level."""
    result = run(build(tmp_path, "legacy_args", opt_level))
    assert result.returncode == 0, result.stdout + result.stderr
    checked = [line for line in result.stdout.splitlines() if "central" in line]
    assert len(checked) == 6 and not any("WRONG" in line for line in checked), result.stdout
