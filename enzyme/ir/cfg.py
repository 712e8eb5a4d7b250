"""Control-flow graph utilities: orders, (post-)dominators and natural loops.

Dominators use the iterative algorithm of Cooper, Harvey and Kennedy over
reverse post-order; post-dominators run the same algorithm on the reversed
graph with a virtual exit joining every block without successors.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from .blocks import Block, Function


def reverse_post_order(f: Function) -> list[Block]:
    """Blocks reachable from the entry, in reverse post-order."""
    return _rpo([f.entry], lambda b: b.successors)


def normal_flow_order(f: Function) -> list[Block]:
    """Blocks reachable from the entry without taking an ``invoke``'s unwind edge, in reverse post-order."""
    from .instructions import InvokeInst

    def succ(b: Block) -> list[Block]:
        term = b.terminator
        return [term.normal_dest] if isinstance(term, InvokeInst) else b.successors
    return _rpo([f.entry], succ)


def _rpo(roots: Iterable[Block], succ: Callable[[Block], list[Block]]) -> list[Block]:
    seen: set[Block] = set()
    post: list[Block] = []
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
        if not post:
            root: object = f.entry
            succ: Callable[[object], list] = lambda b: b.successors  # type: ignore[attr-defined]
            pred: Callable[[object], list] = lambda b: b.predecessors  # type: ignore[attr-defined]
        else:
            root = _VirtualExit()
            exits = [b for b in f.blocks if not b.successors]
            succ = lambda b: exits if b is root else b.predecessors  # type: ignore[attr-defined]  # noqa: E731
            pred = lambda b: [] if b is root else (b.successors or [root])  # type: ignore[attr-defined]  # noqa: E731
        order = _rpo([root], succ)  # type: ignore[list-item]
        index = {b: i for i, b in enumerate(order)}
        idom: dict[object, object] = {root: root}

        def intersect(a: object, b: object) -> object:
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
                new = None
                for p in pred(b):
                    if p in idom:
                        new = p if new is None else intersect(p, new)
                if new is not None and idom.get(b) is not new:
                    idom[b] = new
                    changed = True
        self.root = root
        self.order: list[Block] = [b for b in order if isinstance(b, Block)]
        self.idom: dict[Block, Block | None] = {
            b: (None if d is root and post else d) for b, d in idom.items() if isinstance(b, Block)}  # type: ignore[misc]
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
