"""The runnable examples in enzyme.testing's docstrings."""
from __future__ import annotations

import doctest
import importlib

import pytest

# (module, has examples): the plugin's and the facade's examples are test files, run by the pytester tests
MODULES = [("enzyme.testing.fdm", True), ("enzyme.testing.forward", True), ("enzyme.testing.reverse", True),
           ("enzyme.testing.gradcheck", True), ("enzyme.testing", False), ("enzyme.testing.pytest_plugin", False)]


@pytest.mark.parametrize("name,has_examples", MODULES)
def test_docstring_examples(name: str, has_examples: bool) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    assert result.failed == 0
    assert (result.attempted > 0) == has_examples
