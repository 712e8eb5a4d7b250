"""The pytest plugin (enzyme.testing.pytest_plugin), run on small test projects with pytester."""
from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

PLUGIN = "enzyme.testing.pytest_plugin"
PROGRAMS = Path(__file__).resolve().parent / "programs"
REPO = Path(__file__).resolve().parents[2]

MODEL_C = """
#include <math.h>
double f(double x, double y) { return x * x * y + sin(x); }
double sumsq(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return s; }
"""

LIB_FIXTURE = """
import numpy as np
import pytest
from enzyme import Active, Const, Duplicated
from enzyme.testing import central_fdm

@pytest.fixture(scope="module")
def lib(enzyme_lib):
    return enzyme_lib("src/model.c")
"""


def _installed() -> bool:
    return any(ep.value == PLUGIN for ep in importlib.metadata.entry_points(group="pytest11"))


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # Installed pyenzyme loads the plugin by its entry point; a checkout not reinstalled since the entry point
    # was added needs it named (naming it as well would register it twice).
    plugin = [] if _installed() else ["-p", PLUGIN]
    # In a subprocess: in-process runs drop the modules they imported when they end, and neither numpy nor the
    # engine's lazily imported modules survive being imported twice in one process.
    return pytester.runpytest_subprocess(*plugin, "-p", "no:cacheprovider", *args)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "src").mkdir()
    (pytester.path / "src" / "model.c").write_text(MODEL_C)
    return pytester


def test_entry_point_is_declared() -> None:
    # (text, not tomllib: that is Python 3.11+ and the project supports 3.10)
    text = (REPO / "pyproject.toml").read_text()
    section = re.search(r"^\[project\.entry-points\.pytest11\]\n(.*?)(?:\n\[|\Z)", text, re.MULTILINE | re.DOTALL)
    assert section is not None
    assert re.findall(r"^(\S+) = \"([^\"]+)\"", section.group(1), re.MULTILINE) == [("enzyme", PLUGIN)]


def test_marker_and_options_are_registered(pytester: pytest.Pytester) -> None:
    result = _run(pytester, "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.gradcheck(rtol=, atol=, modes=, fdm=, testset_name=, split=):*"])
    result = _run(pytester, "--help")
    result.stdout.fnmatch_lines(["*--enzyme-seed=N*", "*enzyme_gradcheck_rtol*"])


def test_one_line_gradient_tests_pass(project: pytest.Pytester) -> None:
    project.makepyfile(test_model=LIB_FIXTURE + """
def test_f(lib, gradcheck):
    gradcheck(lib.f, Active, Active(1.5), 2.0)

def test_sumsq(lib, gradcheck):
    gradcheck(lib.sumsq, Active, (np.array([1.0, -2.0, 0.5]), Duplicated), 3)

def test_compiled_once_per_session(lib, enzyme_lib):
    assert enzyme_lib("src/model.c") is lib
    assert enzyme_lib(str(lib_path())) is lib   # absolute path, same file

def lib_path():
    import pathlib
    return pathlib.Path("src/model.c").resolve()
""")
    result = _run(project)
    result.assert_outcomes(passed=3)


def test_wrong_rule_fails_with_a_readable_message(project: pytest.Pytester) -> None:
    project.makepyfile(test_wrong=LIB_FIXTURE + f"""
WRONG = {(PROGRAMS / "wrong_rules.c").read_text()!r}

def test_cube(enzyme_lib, gradcheck):
    lib = enzyme_lib(code={{"wrong_rules.c": WRONG}})
    gradcheck(lib.uses_cube, Active, Active(1.5), 2.0)
""")
    result = _run(project)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "*gradcheck(lib.uses_cube, Active, Active(1.5), 2.0)",  # pytest points at the user's line
        "E*AssertionError: test_forward(uses_cube, Duplicated, ...): 1 of 2 checks failed",
        "E*tangent of the return value (Forward mode, vs central_fdm(5, 1, adapt=1))",
        "E*expected: *",
        "E*got: *",
        "E*max abs error *, max rel error 0.667*",
    ])
    # the checker's own frames are hidden (__tracebackhide__)
    assert "raise_if_failed" not in result.stdout.str()


def test_marker_and_ini_options(project: pytest.Pytester) -> None:
    project.makeini("[pytest]\nenzyme_gradcheck_rtol = 0\nenzyme_gradcheck_atol = 0\n")
    project.makepyfile(test_options=LIB_FIXTURE + """
def test_exact_tolerance_from_ini_fails(lib, gradcheck):
    gradcheck(lib.f, Active, Active(1.5), 2.0, modes=["forward"])

@pytest.mark.gradcheck(rtol=1e-8, atol=1e-10, split=True)
def test_marker_overrides_ini(lib, gradcheck):
    gradcheck(lib.f, Active, Active(1.5), 2.0)

@pytest.mark.gradcheck(rtol=1e-8, atol=1e-10)
def test_call_overrides_marker(lib, gradcheck):
    gradcheck(lib.f, Active, Active(1.5), 2.0, rtol=0.0, atol=0.0, fdm=central_fdm(2, 1))

@pytest.mark.gradcheck(rtol=1e-8, atol=1e-10)
class TestClass:
    @pytest.mark.gradcheck(modes=["reverse"])
    def test_markers_combine(self, lib, gradcheck):
        gradcheck(lib.sumsq, Active, (np.array([1.0, 2.0]), Duplicated), 2)

@pytest.mark.gradcheck(tolerance=1)
def test_unknown_option(lib, gradcheck):
    pass
""")
    result = _run(project, "-rfE")
    result.assert_outcomes(passed=2, failed=2, errors=1)
    summary = result.stdout.str().split("short test summary info")[-1]
    assert "FAILED test_options.py::test_exact_tolerance_from_ini_fails" in summary
    assert "FAILED test_options.py::test_call_overrides_marker" in summary
    assert "ERROR test_options.py::test_unknown_option" in summary
    assert "@pytest.mark.gradcheck got unknown option(s) tolerance; known: rtol, atol" in result.stdout.str()


def test_rng_is_seeded_per_test_and_by_option(project: pytest.Pytester) -> None:
    project.makepyfile(test_rng="""
def test_a(enzyme_rng):
    print("DRAW-a", enzyme_rng.random())

def test_b(enzyme_rng):
    print("DRAW-b", enzyme_rng.random())
""")

    def draws(*args: str) -> dict[str, str]:
        result = _run(project, "-s", *args)
        result.assert_outcomes(passed=2)
        return dict(re.findall(r"DRAW-(\w) (\S+)", result.stdout.str()))

    first, again, reseeded = draws(), draws(), draws("--enzyme-seed=5")
    assert first == again
    assert first["a"] != first["b"]
    assert reseeded["a"] != first["a"]


def test_enzyme_lib_errors(project: pytest.Pytester) -> None:
    project.makepyfile(test_errors="""
import pytest
from enzyme.errors import CompileError

BROKEN = {"broken.c": "double f(double x) { return x +; }"}

def test_missing_source(enzyme_lib):
    with pytest.raises(FileNotFoundError, match="src/nope.c does not exist .*resolved against the rootdir"):
        enzyme_lib("src/nope.c")

def test_compile_error(enzyme_lib):
    with pytest.raises(CompileError) as first:
        enzyme_lib(code=BROKEN)
    with pytest.raises(CompileError) as second:
        enzyme_lib(code=BROKEN)
    assert first.value is second.value   # remembered, not recompiled

def test_no_sources(enzyme_lib):
    with pytest.raises(pytest.UsageError, match="at least one source"):
        enzyme_lib()
""")
    _run(project).assert_outcomes(passed=3)


SIBLING_HEADER_MODEL = '#include "../common/params.h"\ndouble k(double x) { return K * x * x; }\n'


def test_enzyme_lib_sees_a_header_changed_in_a_sibling_directory(pytester: pytest.Pytester,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions share enzyme.compile's disk cache; a header outside the source's directory changed between two
    sessions, or during one, gives a new library, never the old one."""
    monkeypatch.setenv("ENZYME_CACHE_DIR", str(pytester.path / "cache"))
    (pytester.path / "src").mkdir()
    (pytester.path / "common").mkdir()
    (pytester.path / "src" / "model.c").write_text(SIBLING_HEADER_MODEL)
    header = pytester.path / "common" / "params.h"
    for k in (2.0, 3.0, 3.0):
        header.write_text(f"#define K {k}\n")
        pytester.makepyfile(test_k=f"""
from enzyme import Active

def test_k(enzyme_lib, gradcheck):
    lib = enzyme_lib("src/model.c")
    assert lib.k(1.0) == {k}
    gradcheck(lib.k, Active, Active(1.5))
""")
        _run(pytester).assert_outcomes(passed=1)
    pytester.makepyfile(test_k="""
from pathlib import Path

def test_edit_during_the_session(enzyme_lib):
    lib = enzyme_lib("src/model.c")
    assert enzyme_lib("src/model.c") is lib and lib.k(1.0) == 3.0
    Path("common/params.h").write_text("#define K 5.0\\n")
    edited = enzyme_lib("src/model.c")
    assert edited is not lib and edited.k(1.0) == 5.0
""")
    _run(pytester).assert_outcomes(passed=1)


def test_example_project_passes(pytester: pytest.Pytester) -> None:
    """examples/gradcheck_project's tests (what its `tox -e gradcheck` runs), with the installed pyenzyme."""
    example = REPO / "examples" / "gradcheck_project"
    for path in ["tox.ini", "src/model.c", "tests/test_gradients.py"]:
        target = pytester.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((example / path).read_text())
    result = _run(pytester)
    result.assert_outcomes(passed=4)
