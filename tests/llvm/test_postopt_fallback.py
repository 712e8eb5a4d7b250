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
from enzyme.pipeline import TransformOptions, transform_module

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
