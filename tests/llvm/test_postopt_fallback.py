"""LLVM 22's SLP vectorizer can turn a verified derivative module into invalid IR (a use before its
definition).  ``transform_module`` verifies what O3 gives back and optimizes again without SLP then.

data/slp_invalid_ir.ll is a forward-mode derivative from the random tester (seed 320, -O3), reduced
with llvm-reduce to what still breaks under O3.
"""
from __future__ import annotations

import warnings
from pathlib import Path

from enzyme import llvm
from enzyme.errors import EnzymeWarning
from enzyme.pipeline import TransformOptions, transform_module, write_object

DATA = Path(__file__).parent / "data" / "slp_invalid_ir.ll"


def _plain_o3_breaks(text: str) -> bool:
    module = llvm.parse(text)
    llvm.optimize(module, 3)
    try:
        llvm.verify(module)
        return False
    except Exception:  # noqa: BLE001 - the LLVM bug this test is about
        return True


def test_postopt_output_is_verified_and_falls_back_without_slp() -> None:
    text = DATA.read_text()
    llvm.verify(llvm.parse(text))  # the input itself is valid
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = transform_module(llvm.parse(text), TransformOptions(preopt=False, postopt_level=3), name="slp")
    llvm.verify(result)
    warned = [w for w in caught if issubclass(w.category, EnzymeWarning) and "SLP" in str(w.message)]
    # The fallback speaks exactly when LLVM's own O3 breaks the module (a fixed LLVM makes both false).
    assert bool(warned) == _plain_o3_breaks(text)


def test_write_object_checks_what_clang_optimized_and_falls_back(tmp_path: Path) -> None:
    """``write_object`` optimizes in the clang run that compiles; clang verifies the optimized IR there (it
    would compile the broken module silently otherwise) and the module is optimized in-process when it fails."""
    text = DATA.read_text()
    module = llvm.parse(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        output = write_object(module, tmp_path / "slp.o", 3, name="slp")
    assert output.read_bytes()[:4] == b"\x7fELF"
    assert not list(tmp_path.glob("*.bc"))  # the bitcode handed to clang is gone
    fell_back = [w for w in caught if issubclass(w.category, EnzymeWarning) and "in-process" in str(w.message)]
    assert bool(fell_back) == _plain_o3_breaks(text)
    if fell_back:
        assert "does not dominate" in str(fell_back[0].message) or "Broken" in str(fell_back[0].message)
    llvm.verify(module)  # left as it was
