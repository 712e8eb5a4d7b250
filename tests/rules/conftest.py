"""The rule harness compiled once per session (see rule_harness.py)."""
from __future__ import annotations

import pytest
from rule_harness import CASES, Compiled


@pytest.fixture(scope="session")
def compiled() -> Compiled:
    return Compiled(CASES)
