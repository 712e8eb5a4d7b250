"""Control-flow graph utilities: orders, (post-)dominators and natural loops.

Dominators use the iterative algorithm of Cooper, Harvey and Kennedy over
reverse post-order; post-dominators run the same algorithm on the reversed
graph with a virtual exit joining every block without successors.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from .blocks import Block, Function

if TYPE_CHECKING:
    from .instructions import Instruction
    from .values import Value

_N = TypeVar("_N")


def reverse_post_order(f: Function) -> list[Block]:
    """Blocks reachable from the entry, in reverse post-order."""
    return _cached_order(f, "all", lambda b: b.successors)


def normal_flow_order(f: Function) -> list[Block]:
    """Blocks reachable from the entry without taking an ``invoke``'s unwind edge, in reverse post-order."""
    from .instructions import InvokeInst

    def succ(b: Block) -> list[Block]:
        term = b.terminator
        return [term.normal_dest] if isinstance(term, InvokeInst) else b.successors
    return _cached_order(f, "normal", succ)


def catching_flow_order(f: Function, caught: frozenset) -> list[Block]:
    """Blocks reachable from the entry without taking an unwind edge other than those of the ``caught``
    invokes, in reverse post-order."""
    from .instructions import InvokeInst

    def succ(b: Block) -> list[Block]:
        term = b.terminator
        if isinstance(term, InvokeInst):
            return [term.normal_dest, term.unwind_dest] if term in caught else [term.normal_dest]
        return b.successors
    return _rpo([f.entry], succ) if caught else normal_flow_order(f)


def blocks_without_return(order: list[Block]) -> set[Block]:
    """The blocks of ``order`` (normal flow) from which no ``ret`` can be reached without unwinding: paths that
    throw (``__cxa_throw``), abort, exit or never end."""
    from .instructions import ReturnInst

    inside = set(order)
    preds: dict[Block, list[Block]] = {b: [] for b in order}
    for b in order:
        for s in b.successors:  # an unwind edge only where ``order`` holds its handler (a caught exception)
            if s in inside:
                preds[s].append(b)
    returning = {b for b in order if isinstance(b.terminator, ReturnInst)}
    work = list(returning)
    while work:
        for p in preds[work.pop()]:
            if p not in returning:
                returning.add(p)
                work.append(p)
    return inside - returning


@dataclass(frozen=True, eq=False)
class _Order:
    """An order of ``f``'s blocks and what it was computed from.

    The order is a function of the entry block and, for each block it reaches, of that block's
    terminator and the terminator's operands (successors are operands).  ``User.operands`` is
    one tuple object until an operand changes, so "same entry, and for every block the same
    terminator with the same operand tuple" means the order is still the one ``_rpo`` would give.
    """

    entry: Block
    blocks: tuple[Block, ...]
    terminators: tuple[tuple[Instruction | None, tuple[Value, ...]], ...]

    @staticmethod
    def of(f: Function, blocks: list[Block]) -> "_Order":
        terms = tuple((t, t.operands if t is not None else ()) for t in (b.terminator for b in blocks))
        return _Order(f.entry, tuple(blocks), terms)

    def describes(self, f: Function) -> bool:
        if not f.blocks or f.blocks[0] is not self.entry:
            return False
        for b, (term, operands) in zip(self.blocks, self.terminators):
            now = b.terminator
            if now is not term or (now is not None and now.operands is not operands):
                return False
        return True


# Analyses ask for the orders of unchanged functions over and over (once per derivative made).
_ORDERS: weakref.WeakKeyDictionary[Function, dict[str, _Order]] = weakref.WeakKeyDictionary()


def _cached_order(f: Function, kind: str, succ: Callable[[Block], list[Block]]) -> list[Block]:
    orders = _ORDERS.setdefault(f, {})
    known = orders.get(kind)
    if known is None or not known.describes(f):
        known = orders[kind] = _Order.of(f, _rpo([f.entry], succ))
    return list(known.blocks)


def _rpo(roots: Iterable[_N], succ: Callable[[_N], list[_N]]) -> list[_N]:
    seen: set[_N] = set()
    post: list[_N] = []
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(succ(root)))]
        while stack:
            b, it = stack[-1]
            for s in it:
                if s not in seen:
                    seen.add(s)
                    stack.append((s, iter(succ(s))))
                    break
            else:
                post.append(b)
                stack.pop()
    post.reverse()
    return post


def reachable(f: Function) -> set[Block]:
    return set(reverse_post_order(f))


class _VirtualExit:
    """The node joining every exit block, root of the post-dominator tree."""

    name = "<exit>"


class DominatorTree:
    """Immediate (post-)dominators of the blocks reachable from the entry (from the exits)."""

    def __init__(self, f: Function, *, post: bool = False) -> None:
        self.post = post
        # Post-dominators: the same algorithm on the reversed graph, rooted at a virtual exit.
        exit_ = _VirtualExit()
        root: Block | _VirtualExit = exit_ if post else f.entry
        exits: list[Block | _VirtualExit] = [b for b in f.blocks if not b.successors] if post else []

        def pred(b: Block | _VirtualExit) -> list[Block | _VirtualExit]:
            if not isinstance(b, Block):
                return []
            if not post:
                return [*b.predecessors]
            return [*b.successors] if b.successors else [exit_]

        order: list[Block | _VirtualExit] = [*reverse_post_order(f)] if not post else _rpo(
            [root], lambda b: [*b.predecessors] if isinstance(b, Block) else exits)
        index = {b: i for i, b in enumerate(order)}
        idom: dict[Block | _VirtualExit, Block | _VirtualExit] = {root: root}

        def intersect(a: Block | _VirtualExit, b: Block | _VirtualExit) -> Block | _VirtualExit:
            while a is not b:
                while index[a] > index[b]:
                    a = idom[a]
                while index[b] > index[a]:
                    b = idom[b]
            return a

        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                new: Block | _VirtualExit | None = None
                for p in pred(b):
                    if p in idom:
                        new = p if new is None else intersect(p, new)
                if new is not None and idom.get(b) is not new:
                    idom[b] = new
                    changed = True
        self.root = root
        self.order: list[Block] = [b for b in order if isinstance(b, Block)]
        self.idom: dict[Block, Block | None] = {
            b: (d if isinstance(d, Block) else None) for b, d in idom.items() if isinstance(b, Block)}
        if not post:
            self.idom[f.entry] = None
        self.children: dict[Block, list[Block]] = {b: [] for b in self.order}
        for b, d in self.idom.items():
            if d is not None:
                self.children[d].append(b)

    def immediate(self, b: Block) -> Block | None:
        """The immediate (post-)dominator; None for the entry (for exits: the virtual exit)."""
        return self.idom.get(b)

    def dominates(self, a: Block, b: Block) -> bool:
        """Does ``a`` (post-)dominate ``b``?  Every block dominates itself."""
        if b not in self.idom:
            return True  # unreachable blocks are dominated by everything
        x: Block | None = b
        while x is not None:
            if a is x:
                return True
            x = self.idom[x]
        return False

    def strictly_dominates(self, a: Block, b: Block) -> bool:
        return a is not b and self.dominates(a, b)


@dataclass(eq=False)
class Loop:
    """A natural loop: ``header`` plus every block that reaches a latch without passing the header."""

    header: Block
    blocks: set[Block] = field(default_factory=set)
    latches: list[Block] = field(default_factory=list)
    parent: "Loop | None" = None
    children: list["Loop"] = field(default_factory=list)

    @property
    def depth(self) -> int:
        d, p = 1, self.parent
        while p is not None:
            d, p = d + 1, p.parent
        return d

    @property
    def preheader(self) -> Block | None:
        """The unique outside predecessor whose only successor is the header, if any."""
        outside = [p for p in self.header.predecessors if p not in self.blocks]
        if len(outside) == 1 and outside[0].successors == [self.header]:
            return outside[0]
        return None

    @property
    def exiting_blocks(self) -> list[Block]:
        return [b for b in self.ordered_blocks() if any(s not in self.blocks for s in b.successors)]

    @property
    def exit_blocks(self) -> list[Block]:
        out: dict[Block, None] = {}
        for b in self.ordered_blocks():
            for s in b.successors:
                if s not in self.blocks:
                    out[s] = None
        return list(out)

    def ordered_blocks(self) -> list[Block]:
        assert self.header.parent is not None
        return [b for b in self.header.parent.blocks if b in self.blocks]

    def contains(self, b: Block) -> bool:
        return b in self.blocks

    def __repr__(self) -> str:
        return f"<Loop header={self.header.name!r} blocks={len(self.blocks)} depth={self.depth}>"


class LoopInfo:
    """All natural loops of a function, nested; ``loop_of(b)`` is the innermost loop containing ``b``."""

    def __init__(self, f: Function, dom: DominatorTree | None = None) -> None:
        dom = dom or DominatorTree(f)
        by_header: dict[Block, Loop] = {}
        for b in dom.order:
            for s in b.successors:
                if dom.dominates(s, b):  # back edge b -> s
                    loop = by_header.setdefault(s, Loop(s, {s}))
                    loop.latches.append(b)
                    work = [b]
                    while work:
                        x = work.pop()
                        if x in loop.blocks:
                            continue
                        loop.blocks.add(x)
                        work.extend(p for p in x.predecessors if p in dom.idom)
        loops = sorted(by_header.values(), key=lambda lp: len(lp.blocks))
        for i, inner in enumerate(loops):
            for outer in loops[i + 1:]:
                if inner.header in outer.blocks and outer is not inner:
                    inner.parent = outer
                    outer.children.append(inner)
                    break
        self.loops = [lp for lp in loops if lp.parent is None]
        self.all_loops = loops
        self._innermost: dict[Block, Loop] = {}
        for lp in reversed(loops):  # outer first, inner overrides
            for b in lp.blocks:
                self._innermost[b] = lp

    def loop_of(self, b: Block) -> Loop | None:
        return self._innermost.get(b)
