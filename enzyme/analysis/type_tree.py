"""Type trees: what each byte of a value, and of the memory it points to, holds.

A :class:`TypeTree` maps offset paths to a :class:`ConcreteType`.  The first
index is a byte offset inside the value itself (``-1``: every offset, which is
how scalars are written); each further index is a byte offset inside the memory
that the pointer found at the previous path points to::

    double            {[-1]:Float@double}
    double*           {[-1]:Pointer, [-1,-1]:Float@double}
    struct{int;double}*  {[-1]:Pointer, [-1,0]:Integer, ..., [-1,3]:Integer, [-1,8]:Float@double}

A missing path is *Unknown* (the bottom of the lattice).  ``Anything`` is the
top: bytes that may hold any type (and where two facts disagreed).  Joining two
different concrete types at one path is a *conflict*: it is reported to the
caller and the path becomes ``Anything``, so analyses keep going and the user
of the result decides whether the conflict matters.

>>> t = TypeTree({(-1,): POINTER, (-1, -1): float_type("double")})
>>> str(t)
'{[-1]:Pointer, [-1,-1]:Float@double}'
>>> str(t.pointee())
'{[-1]:Float@double}'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

Path = tuple[int, ...]

#: Paths deeper than this are dropped (recursive types would grow without end).
MAX_DEPTH = 5
#: Byte offsets above this are dropped (Enzyme's MaxTypeOffset is 500): bigger structs lose types past it.
MAX_OFFSET = 512
#: A tree this big takes no more paths below its first pointee level (linked structures
#: like red-black trees multiply paths at every level).
MAX_ENTRIES = 512
_SCAN_LIMIT = 48


@dataclass(frozen=True, slots=True)
class ConcreteType:
    """``Integer``, ``Pointer``, ``Float`` (with its IR kind) or ``Anything``."""

    kind: str
    float_kind: str | None = None

    @property
    def is_float(self) -> bool:
        return self.kind == "Float"

    @property
    def is_integer(self) -> bool:
        return self.kind == "Integer"

    @property
    def is_pointer(self) -> bool:
        return self.kind == "Pointer"

    @property
    def is_anything(self) -> bool:
        return self.kind == "Anything"

    def __str__(self) -> str:
        return f"Float@{self.float_kind}" if self.kind == "Float" else self.kind


INTEGER = ConcreteType("Integer")
POINTER = ConcreteType("Pointer")
ANYTHING = ConcreteType("Anything")
_FLOATS: dict[str, ConcreteType] = {}


def float_type(kind: str) -> ConcreteType:
    """``Float@kind`` for an IR float kind (``double``, ``float``, ``half``, ``x86_fp80`` ...)."""
    t = _FLOATS.get(kind)
    if t is None:
        t = _FLOATS[kind] = ConcreteType("Float", kind)
    return t


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two facts that disagree at one path (the path is ``Anything`` from then on)."""

    path: Path
    old: ConcreteType
    new: ConcreteType


class TypeTree:
    """A mutable map from offset paths to concrete types; see the module docstring."""

    __slots__ = ("_m", "_unchecked")

    def __init__(self, entries: Mapping[Any, ConcreteType] | Iterable[tuple[Path, ConcreteType]] | None = None) -> None:
        self._m: dict[Path, ConcreteType] = {}
        self._unchecked = False  # a big-tree insert skipped the wildcard scan (see hidden_conflicts)
        if entries:
            items = entries.items() if isinstance(entries, Mapping) else entries
            for p, t in items:
                self.insert(p, t)

    # -- reading ---------------------------------------------------------------
    def __iter__(self) -> Iterator[tuple[Path, ConcreteType]]:
        return iter(sorted(self._m.items()))

    def __len__(self) -> int:
        return len(self._m)

    def __bool__(self) -> bool:
        return bool(self._m)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypeTree) and self._canonical() == other._canonical()

    def __hash__(self) -> int:  # trees are mutable; hash the frozen key instead
        raise TypeError("TypeTree is mutable; use tree.key()")

    def key(self) -> tuple[tuple[Path, ConcreteType], ...]:
        """An immutable, hashable snapshot (for memoization)."""
        return tuple(sorted(self._canonical().items()))

    def _canonical(self) -> dict[Path, ConcreteType]:
        """The entries without specific ones that a covering ``-1`` entry already implies."""
        out = {}
        for p, t in self._m.items():
            cover = None
            for g in _generalizations(p):
                cover = self._m.get(g)
                if cover is not None:
                    break
            if cover is not None and cover == t:
                continue
            out[p] = t
        return out

    def hidden_conflicts(self) -> list[Conflict]:
        """Specific entries that disagree with a covering ``-1`` entry (left by big-tree inserts)."""
        found: list[Conflict] = []
        if not self._unchecked:
            return found
        for p, t in self._m.items():
            if t.is_anything:
                continue
            for g in _generalizations(p):
                c = self._m.get(g)
                if c is not None:
                    if c != t and not c.is_anything:
                        found.append(Conflict(p, c, t))
                    break
        return found

    def copy(self) -> "TypeTree":
        t = TypeTree()
        t._m = dict(self._m)
        t._unchecked = self._unchecked
        return t

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[Path, ConcreteType]]) -> "TypeTree":
        """Build a tree from entries that already keep the pointer-prefix rule (fast path)."""
        out = cls()
        m = out._m
        clashes = []
        for p, t in pairs:
            old = m.get(p)
            if old is None:
                m[p] = t
            elif old is not t:
                clashes.append((p, t))
        for p, t in clashes:
            out.insert(p, t)
        return out

    def get(self, path: Path) -> ConcreteType | None:
        """The type at ``path``: the exact entry, else the most specific ``-1`` entry covering it."""
        exact = self._m.get(path)
        if exact is not None or not self._m:
            return exact
        for general in _generalizations(path):
            t = self._m.get(general)
            if t is not None:
                return t
        return None

    def at(self, *path: int) -> ConcreteType | None:
        """``tree.at(-1, 8)``: shorthand for :meth:`get`."""
        return self.get(tuple(path))

    def top(self) -> ConcreteType | None:
        """The type of the value itself (offset ``-1``, or 0 for aggregates starting with it)."""
        return self._m.get((-1,)) or self._m.get((0,))

    # -- writing ---------------------------------------------------------------
    def insert(self, path: Path, t: ConcreteType) -> tuple[bool, list[Conflict]]:
        """Join ``t`` in at ``path``; returns (changed, conflicts)."""
        old = self._m.get(path)
        if old is not None and (old == t or old.is_anything):
            return False, []
        if len(path) > MAX_DEPTH or max(path) > MAX_OFFSET or min(path) < -1:
            return False, []
        if len(path) > 2 and len(self._m) >= MAX_ENTRIES:
            return False, []
        conflicts: list[Conflict] = []
        changed = False
        # A path below a pointer implies the pointer.
        for i in range(1, len(path)):
            pre = self._m.get(path[:i])
            if pre is not None and (pre.is_pointer or pre.is_anything):
                continue
            c, cf = self._insert_one(path[:i], POINTER)
            changed |= c
            conflicts += cf
        c, cf = self._insert_one(path, t)
        return changed or c, conflicts + cf

    def _insert_one(self, path: Path, t: ConcreteType) -> tuple[bool, list[Conflict]]:
        old = self._m.get(path)
        if old is not None:
            if old == t or old.is_anything:
                return False, []
            if t.is_anything:
                self._m[path] = t
                return True, []
            self._m[path] = ANYTHING
            return True, [Conflict(path, old, t)]
        cover = self.get(path)
        if cover is not None and (cover == t or cover.is_anything):
            return False, []  # already implied by a -1 entry
        conflicts: list[Conflict] = []
        if cover is not None and not t.is_anything:
            self._m[path] = ANYTHING
            return True, [Conflict(path, cover, t)]
        if -1 in path and len(self._m) > _SCAN_LIMIT:
            self._unchecked = True
        elif -1 in path:
            # The new wildcard subsumes specific entries that agree; disagreeing ones conflict.
            # (Big trees skip this scan: a leftover specific entry still wins in get(), and
            # hidden_conflicts() finds the disagreements once the analysis is done.)
            for p in [p for p in self._m if len(p) == len(path) and p != path and _covers(path, p)]:
                q = self._m[p]
                if q == t or t.is_anything:
                    del self._m[p]
                elif not q.is_anything:
                    self._m[p] = ANYTHING
                    conflicts.append(Conflict(p, q, t))
        self._m[path] = t
        return True, conflicts

    def join(self, other: "TypeTree") -> tuple[bool, list[Conflict]]:
        """Join every entry of ``other`` in (wildcards first, so specifics fold into them)."""
        changed, conflicts = False, []
        m = self._m
        pending = [(p, t) for p, t in other._m.items() if m.get(p) is not t]  # types are interned
        if not pending:
            return False, []
        pending.sort(key=lambda kv: (-kv[0].count(-1), kv[0]))
        for p, t in pending:
            c, cf = self.insert(p, t)
            changed |= c
            conflicts += cf
        return changed, conflicts

    # -- derived trees -----------------------------------------------------------
    def pointee(self, offset: int = -1) -> "TypeTree":
        """The memory tree of what the pointer at value offset ``offset`` (-1 or 0) points to."""
        firsts = (-1, 0) if offset in (-1, 0) else (offset, -1)
        picked = [(p, t) for p, t in self._m.items() if len(p) >= 2 and p[0] in firsts]
        if len({p[0] for p, _ in picked}) <= 1:  # one source subtree: already canonical
            out = TypeTree()
            out._m = {p[1:]: t for p, t in picked}
            return out
        out = TypeTree()
        for p, t in sorted(picked, key=lambda kv: (-kv[0].count(-1), kv[0])):
            out.insert(p[1:], t)
        return out

    def under(self, first: int) -> "TypeTree":
        """This tree as the pointee of a pointer at value offset ``first``: paths get ``first`` prepended."""
        out = TypeTree()
        out._m[(first,)] = POINTER
        for p, t in self._m.items():
            if len(p) + 1 <= MAX_DEPTH:
                out._m[(first,) + p] = t
        return out

    def shifted(self, delta: int, lo: int = 0, hi: int | None = None, keep_wild: bool = True) -> "TypeTree":
        """A memory tree with first offsets moved by ``delta``, kept where ``lo <= new < hi``."""
        out = TypeTree()
        m = out._m
        for p, t in self._m.items():
            if p[0] == -1:
                if keep_wild:
                    m[p] = t
                continue
            n = p[0] + delta
            if n < lo or (hi is not None and n >= hi) or n > MAX_OFFSET:
                continue
            m[(n,) + p[1:]] = t
        return out

    def first_level(self) -> dict[int, ConcreteType]:
        """First offset -> type, for the entries of length one."""
        return {p[0]: t for p, t in self._m.items() if len(p) == 1}

    def __str__(self) -> str:
        def fmt(p: Path) -> str:
            return "[" + ",".join(map(str, p)) + "]"
        return "{" + ", ".join(f"{fmt(p)}:{t}" for p, t in sorted(self._canonical().items())) + "}"

    def __repr__(self) -> str:
        return f"TypeTree({self})"


_GENERALIZATIONS: dict[Path, list[Path]] = {}


def _generalizations(path: Path) -> list[Path]:
    """Paths covering ``path`` with some specific offsets replaced by -1, most specific first."""
    mask = tuple(x == -1 for x in path)
    out = _GENERALIZATIONS.get(path)
    if out is None:
        free = [i for i, wild in enumerate(mask) if not wild]
        cands = []
        for bits in range(1, 1 << len(free)):
            q = list(path)
            for k, i in enumerate(free):
                if bits >> k & 1:
                    q[i] = -1
            cands.append((bin(bits).count("1"), tuple(q)))
        out = [q for _, q in sorted(cands)]
        if len(_GENERALIZATIONS) < 100_000:
            _GENERALIZATIONS[path] = out
    return out


def _covers(general: Path, specific: Path) -> bool:
    """Does ``general`` (with -1 wildcards) cover ``specific`` (same length)?"""
    return all(g == -1 or g == s for g, s in zip(general, specific))
