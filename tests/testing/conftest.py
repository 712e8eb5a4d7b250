"""Fixtures of the enzyme.testing tests: the compiled test programs, and pytester for the plugin's tests."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["pytester"]

PROGRAMS = Path(__file__).resolve().parent / "programs"


@pytest.fixture(scope="session")
def model_lib() -> Any:
    """tests/testing/programs/model.c: correct functions."""
    import enzyme

    return enzyme.compile([str(PROGRAMS / "model.c")])


@pytest.fixture(scope="session")
def wrong_lib() -> Any:
    """tests/testing/programs/wrong_rules.c: functions whose custom rules give wrong derivatives."""
    import enzyme

    return enzyme.compile([str(PROGRAMS / "wrong_rules.c")])
