"""The runnable examples in the docstrings of enzyme.api's modules."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("annotations", "library", "differentiation", "conveniences", "second_order", "thunks", "custom_rules")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"enzyme.api.{name}")
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
