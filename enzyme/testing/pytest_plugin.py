"""pytest plugin of pyenzyme: compile sources once per session, check gradients in one line.

Installed with pyenzyme (entry point ``enzyme`` in the ``pytest11`` group), so
it is active in every pytest run once pyenzyme is installed; disable it with
``-p no:enzyme``, or load it explicitly with ``-p enzyme.testing.pytest_plugin``.

A test module of a user project (``src/model.c`` defines
``double f(double x, double y)`` and ``void scale(double *x, int n, double a)``)::

    import numpy as np
    import pytest
    from enzyme import Active, Const, Duplicated

    @pytest.fixture(scope="module")
    def lib(enzyme_lib):
        return enzyme_lib("src/model.c")          # compiled once per session

    def test_f(lib, gradcheck):
        gradcheck(lib.f, Active, Active(1.5), 2.0)          # forward and reverse vs finite differences

    @pytest.mark.gradcheck(rtol=1e-7, modes=["reverse"])
    def test_scale(lib, gradcheck):
        gradcheck(lib.scale, Const, (np.linspace(0, 1, 5), Duplicated), 5, Active(3.0))

Fixtures
--------
``enzyme_lib(*sources, code=None, **options)`` (session scope)
    ``enzyme.compile([...sources], **options)``: the same ``Library`` object for the
    same sources and options as long as the compiled module is the same.  Each call
    asks ``enzyme.compile``, whose cache (shared with every other process) checks the
    sources and every header or module file they read, so an edited header gives a
    new library, in this session or the next.  Relative paths are resolved against
    pytest's rootdir.  ``code={"name.c": "...source text..."}`` compiles source text
    written to a session directory.  A compile error is remembered for unchanged
    sources, so every test using it fails fast with the same message.
``gradcheck(f, ReturnActivity, *args, **overrides)``
    :func:`enzyme.testing.gradcheck` (both modes) with options taken, in this order
    of precedence, from the call, the test's ``@pytest.mark.gradcheck(...)`` marker,
    and the ini options ``enzyme_gradcheck_rtol``/``enzyme_gradcheck_atol``.  Random
    directions are seeded from the test's node id (stable between runs, different
    between tests); ``--enzyme-seed=N`` changes the base seed.
``enzyme_rng``
    a numpy Generator seeded the same way, for tests that draw their own inputs.

Marker
------
``@pytest.mark.gradcheck(rtol=..., atol=..., modes=[...], fdm=..., testset_name=..., split=...)``
    defaults for the ``gradcheck`` fixture in that test.
"""
from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .compare import Report

DEFAULT_SEED = 20250101
_GRADCHECK_OPTIONS = ("rtol", "atol", "modes", "fdm", "testset_name", "split")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("enzyme", "pyenzyme gradient checks")
    group.addoption("--enzyme-seed", type=int, default=None, metavar="N",
                    help="base seed of the random directions drawn by the gradcheck fixture and enzyme_rng")
    parser.addini("enzyme_gradcheck_rtol", "default rtol of the gradcheck fixture", default="1e-9")
    parser.addini("enzyme_gradcheck_atol", "default atol of the gradcheck fixture", default="1e-9")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "gradcheck(rtol=, atol=, modes=, fdm=, testset_name=, split=): options of the gradcheck fixture for this test",
    )


class _LibraryCache:
    """Compiled libraries of one session, keyed by sources and options."""

    def __init__(self, root: Path, scratch: Callable[[], Path]) -> None:
        self.root = root
        self._scratch = scratch
        self._scratch_dir: Path | None = None
        self._libraries: dict[tuple[str, str], Any] = {}
        self._errors: dict[str, Exception] = {}

    def _code_dir(self) -> Path:
        if self._scratch_dir is None:
            self._scratch_dir = self._scratch()
        return self._scratch_dir

    def _write_code(self, code: Mapping[str, str]) -> list[Path]:
        paths = []
        for name, text in code.items():
            digest = hashlib.sha256(f"{name}\0{text}".encode()).hexdigest()[:16]
            path = self._code_dir() / digest / Path(name).name
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            paths.append(path)
        return paths

    def __call__(self, *sources: str | Path, code: Mapping[str, str] | None = None, **options: Any) -> Any:
        __tracebackhide__ = True
        paths = [p if p.is_absolute() else self.root / p for p in map(Path, sources)]
        paths += self._write_code(code or {})
        if not paths:
            raise pytest.UsageError("enzyme_lib() needs at least one source file or code={name: text}")
        for p in paths:
            if not p.is_file():
                raise FileNotFoundError(f"enzyme_lib: source {p} does not exist (relative paths are resolved "
                                        f"against the rootdir {self.root})")
        request = repr(([str(p.resolve()) for p in paths], sorted(options.items())))
        stamp = repr(([p.stat().st_mtime_ns for p in paths], request))
        if stamp in self._errors:
            raise self._errors[stamp]
        import enzyme

        try:
            library = enzyme.compile([str(p) for p in paths], **options)
        except Exception as error:
            self._errors[stamp] = error  # later tests fail the same way, fast
            raise
        # One object per compiled module: tests that share it share its compiled derivatives too.
        return self._libraries.setdefault((request, hashlib.sha256(library.bitcode).hexdigest()), library)


@pytest.fixture(scope="session")
def enzyme_lib(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> _LibraryCache:
    """``enzyme_lib(*sources, code=None, **options)``: ``enzyme.compile`` memoised for the session."""
    return _LibraryCache(Path(request.config.rootpath), lambda: tmp_path_factory.mktemp("enzyme-lib-code"))


def _seed_for(request: pytest.FixtureRequest) -> int:
    base = request.config.getoption("enzyme_seed")
    base = DEFAULT_SEED if base is None else base
    # crc32 of the node id: stable between runs and processes (unlike hash()), different between tests.
    return (base * 1_000_003 + zlib.crc32(request.node.nodeid.encode())) % 2**32


@pytest.fixture
def enzyme_rng(request: pytest.FixtureRequest) -> Any:
    """A numpy Generator seeded from the test's node id (and ``--enzyme-seed``)."""
    import numpy as np

    return np.random.default_rng(_seed_for(request))


def _marker_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    options: dict[str, Any] = {}
    # Closest marker last, so a function's marker overrides its class's or module's.
    for marker in reversed(list(request.node.iter_markers(name="gradcheck"))):
        if marker.args:
            pytest.fail(f"{request.node.nodeid}: @pytest.mark.gradcheck takes keyword arguments only "
                        f"({', '.join(_GRADCHECK_OPTIONS)})", pytrace=False)
        unknown = sorted(set(marker.kwargs) - set(_GRADCHECK_OPTIONS))
        if unknown:
            pytest.fail(f"{request.node.nodeid}: @pytest.mark.gradcheck got unknown option(s) "
                        f"{', '.join(unknown)}; known: {', '.join(_GRADCHECK_OPTIONS)}", pytrace=False)
        options.update(marker.kwargs)
    return options


@pytest.fixture
def gradcheck(request: pytest.FixtureRequest) -> Callable[..., Report]:
    """``gradcheck(f, ReturnActivity, *args, **overrides)``: forward and reverse mode vs finite differences."""
    from .gradcheck import gradcheck as run_gradcheck

    defaults: dict[str, Any] = {
        "rtol": float(request.config.getini("enzyme_gradcheck_rtol")),
        "atol": float(request.config.getini("enzyme_gradcheck_atol")),
    }
    defaults.update(_marker_options(request))
    seed = _seed_for(request)

    def check(f: Callable[..., Any], ret_activity: Any, *args: Any, **overrides: Any) -> Report:
        __tracebackhide__ = True
        options = {**defaults, **overrides}
        options.setdefault("rng", seed)
        return run_gradcheck(f, ret_activity, *args, **options)

    return check
