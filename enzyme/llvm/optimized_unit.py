"""The mark of a translation unit that pyenzyme's clang already optimized at -O2 or higher for AD.

The pre-AD pipeline (``passes.preopt``) runs O2 without vectorizing or unrolling over the linked module:
that inlines across the files linked together and optimizes inputs compiled at lower levels.  For one
C/C++ file that our clang compiled at -O2 or -O3 with the same scalar pipeline (``toolchain.clang``),
a second O2 finds next to nothing to do (it costs 10-20% of such a build): clang links a small module
naming the unit into its output (``-mlink-bitcode-file``), and ``preopt`` then only canonicalizes loops.

The mark is the named metadata ``!pyenzyme.optimized_unit``, one operand per marked unit; each operand
names its unit, so linking two marked units gives two (LLVM keeps one copy of equal nodes).  A link of
several modules by :func:`enzyme.llvm.link` adds two operands of its own, so a marked unit linked with an
unmarked one (Fortran, Rust, IR), or unmarked modules alone, are optimized again too.  (A module linked
elsewhere, by llvm-link, from one marked unit and unmarked ones keeps one operand: it misses the cross-file
inlining, not correctness.)
"""
from __future__ import annotations

import re

import llvmlite.binding as llvm

from enzyme.llvm.targets import host_target_machine

MARK = "pyenzyme.optimized_unit"
_MARK_LINE = re.compile(r"^!pyenzyme\.optimized_unit = !\{(?P<operands>[^}]*)\}$", re.MULTILINE)


def mark_text(unit: str, *, data_layout: str) -> str:
    """A module holding only the mark for ``unit`` (its data layout that of the module it is linked into,
    so LLVM's linker has nothing to warn about; no triple: any matches)."""
    escaped = "".join(chr(b) if 32 <= b < 127 and b not in b'"\\' else f"\\{b:02X}"
                      for b in unit.encode(errors="surrogateescape"))
    return (f'target datalayout = "{data_layout}"\n\n!{MARK} = !{{!0}}\n'
            f'!0 = !{{!"optimized at -O2 or higher, scalar, by pyenzyme\'s clang: {escaped}"}}\n')


def host_mark_bitcode(unit: str) -> bytes:
    """:func:`mark_text` for the host target, as bitcode (what clang's ``-mlink-bitcode-file`` reads)."""
    module = llvm.parse_assembly(mark_text(unit, data_layout=str(host_target_machine().target_data)))
    return module.as_bitcode()


def is_one_optimized_unit(text: str) -> bool:
    """Whether the module printed as ``text`` is exactly one marked unit."""
    found = _MARK_LINE.search(text)
    return found is not None and len(found["operands"].split(",")) == 1


def linked_mark_text(data_layout: str) -> str:
    """What :func:`enzyme.llvm.link` adds when it links several modules: two operands, so that the module is not
    one marked unit whether its inputs were marked or not."""
    return (f'target datalayout = "{data_layout}"\n\n!{MARK} = !{{!0, !1}}\n'
            '!0 = !{!"several modules linked"}\n!1 = !{!"so the pre-AD O2 inlines across them"}\n')
