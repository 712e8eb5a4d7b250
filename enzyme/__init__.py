"""pyenzyme: Enzyme-style automatic differentiation of LLVM IR, written in Python."""
from __future__ import annotations

__version__ = "0.1.0"
