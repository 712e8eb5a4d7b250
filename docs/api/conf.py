"""Sphinx configuration of pyenzyme's API reference (built from the docstrings; see index.rst).

    python3 -m sphinx -W --keep-going -b html docs/api build/api-html

tests/api/test_api_reference.py builds it with warnings as errors, so a docstring that does not render fails CI.
"""
import enzyme

project = "pyenzyme"
author = "pyenzyme developers"
release = version = enzyme.__version__
extensions = ["sphinx.ext.autodoc"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# Annotations name numpy and internal types that need no page of their own.
autodoc_type_aliases: dict[str, str] = {}
nitpicky = False
html_theme = "alabaster"
exclude_patterns = ["_build"]
