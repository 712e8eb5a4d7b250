"""The type-tree lattice: joins, wildcards, conflicts, pointee views."""
from __future__ import annotations

from enzyme.analysis import ANYTHING, INTEGER, POINTER, TypeTree, float_type

DOUBLE = float_type("double")


def test_printing_matches_enzyme_style():
    t = TypeTree({(-1,): POINTER, (-1, -1): DOUBLE})
    assert str(t) == "{[-1]:Pointer, [-1,-1]:Float@double}"
    assert str(TypeTree()) == "{}"


def test_path_below_a_pointer_implies_the_pointer():
    t = TypeTree()
    t.insert((-1, 8), DOUBLE)
    assert t.at(-1) == POINTER
    assert t.at(-1, 8) == DOUBLE
    assert t.at(-1, 0) is None


def test_wildcard_covers_specific_offsets():
    t = TypeTree({(-1,): POINTER, (-1, -1): DOUBLE})
    assert t.at(-1, 24) == DOUBLE
    changed, conflicts = t.insert((-1, 16), DOUBLE)
    assert not changed and not conflicts


def test_wildcard_absorbs_agreeing_specifics():
    t = TypeTree({(-1, 0): DOUBLE, (-1, 8): DOUBLE})
    t.insert((-1, -1), DOUBLE)
    assert str(t) == "{[-1]:Pointer, [-1,-1]:Float@double}"


def test_conflict_is_reported_and_becomes_anything():
    t = TypeTree({(-1,): INTEGER})
    changed, conflicts = t.insert((-1,), DOUBLE)
    assert changed
    assert [(c.old, c.new) for c in conflicts] == [(INTEGER, DOUBLE)]
    assert t.top() == ANYTHING
    assert t.insert((-1,), INTEGER) == (False, [])  # Anything absorbs everything after


def test_float_kinds_conflict():
    t = TypeTree({(0,): float_type("float")})
    _, conflicts = t.insert((0,), DOUBLE)
    assert conflicts


def test_pointee_and_shift():
    t = TypeTree({(-1,): POINTER, (-1, 0): INTEGER, (-1, 8): DOUBLE, (-1, 16): POINTER, (-1, 16, -1): DOUBLE})
    mem = t.pointee()
    assert str(mem) == "{[0]:Integer, [8]:Float@double, [16]:Pointer, [16,-1]:Float@double}"
    assert str(mem.shifted(-8)) == "{[0]:Float@double, [8]:Pointer, [8,-1]:Float@double}"
    assert str(mem.shifted(-8).under(-1)) == (
        "{[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Pointer, [-1,8,-1]:Float@double}")


def test_join_and_keys():
    a = TypeTree({(-1,): POINTER})
    b = TypeTree({(-1,): POINTER, (-1, -1): DOUBLE})
    assert a.join(b)[0]
    assert a == b and a.key() == b.key()
    assert not a.join(b)[0]


def test_depth_and_offset_limits():
    t = TypeTree()
    assert t.insert((-1,) * 10, DOUBLE) == (False, [])
    assert t.insert((100000,), DOUBLE) == (False, [])
