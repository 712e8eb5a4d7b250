"""Elements of standard-library containers of builtin integers.

``std::sort`` of a ``std::vector<unsigned long>`` of indices moves the elements at -O0 as ``i64`` loads and stores
through the iterator's ``operator*``, whose template names the element type: integers, never float bits.
"""
from __future__ import annotations

import re

from ..ir import CallInst, Value

#: ``__gnu_cxx::__normal_iterator<T*, std::vector<T>>::operator*`` for T a builtin integer type: the element of a
#: vector of integers (what std::sort's and std::stable_sort's helpers move at -O0).
_INTEGER_ELEMENT = re.compile(r"^_ZNK9__gnu_cxx17__normal_iteratorIP([bcahstijlmxy])St6vectorI\1SaI\1EEEdeEv$")


def integer_element(p: Value) -> bool:
    """Is ``p`` the address of an element of a ``std::vector`` of builtin integers, as its iterator gives it?"""
    return isinstance(p, CallInst) and _INTEGER_ELEMENT.match(p.callee_name or "") is not None
