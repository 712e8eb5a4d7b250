"""Loads from scratch buffers that one loop fills: the reverse sweep recomputes the stored value.

A block the function allocates itself (malloc, calloc...) and uses only through loads, stores and
``free`` holds, wherever it is read, what its stores put there.  When exactly one store writes it,
``buf[k] = v`` in a counted loop whose induction variable ``k`` runs from 0 with step 1, and a load
``buf[i]`` lies after that loop (the loop's header dominates the load, the load is outside the loop)
with ``i`` an induction variable from 0 with step 1 bounded by the same value as the filling loop,
then the load reads what the store wrote in iteration ``i`` of the loop's latest run: ``v`` as it was
in that iteration.  The reverse sweep rebuilds ``v`` for iteration ``i`` (recompute.py, a shifted
iteration) instead of taping the load -- a temporary like ``xcentered[j] = x[j] - mu[j]`` costs nothing
on the tape when ``x`` and ``mu`` can be re-read.

Every condition is checked on the primal function; any doubt (another store, a call that sees the
buffer, an index that might leave the filled range) keeps the load taped.
"""
from __future__ import annotations

from ..ir import Block, CallInst, ConstantInt, Function, GEPInst, LoadInst, PhiInst, StoreInst, Value
from ..ir.cfg import DominatorTree
from ..rules.memory import MemoryKind, lookup_memory
from .loop_plans import LoopPlan, affine_iv


class ScratchStores:
    """Which loads of one function read a value the reverse sweep can rebuild from its only store."""

    def __init__(self, fn: Function, loops: dict[Block, LoopPlan]) -> None:
        self.fn, self.loops = fn, loops
        self._dt: DominatorTree | None = None
        self._only_store: dict[Value, StoreInst | None] = {}

    def source(self, load: LoadInst) -> tuple[StoreInst, LoopPlan, PhiInst] | None:
        """(the store, its loop, the load's index) when ``load`` reads what that store wrote in iteration
        ``index`` of the loop's latest run (module docstring), else None."""
        p = load.pointer
        if load.volatile or load.atomic or not isinstance(p, GEPInst) or len(p.operands) != 2:
            return None
        base, index = p.operand(0), p.operand(1)
        store = self._store_of(base)
        if store is None or store.value.type != load.type:
            return None
        sp = store.pointer
        assert isinstance(sp, GEPInst)
        if sp.source_type != p.source_type or not isinstance(sp.operand(1), PhiInst) \
                or not isinstance(index, PhiInst):
            return None
        filling = _counted_from_zero(sp.operand(1), self.loops)
        reading = _counted_from_zero(index, self.loops)
        if filling is None or reading is None or filling.trip is None or reading.trip is None \
                or filling.trip.bound is not reading.trip.bound or store.parent is not filling.loop.header:
            return None
        blk = load.parent
        if blk is None or blk in filling.loop.blocks:
            return None
        if self._dt is None:
            self._dt = DominatorTree(self.fn)
        if not self._dt.dominates(filling.loop.header, blk):
            return None
        return store, filling, index

    def _store_of(self, base: Value) -> StoreInst | None:
        """The only store into the fresh block ``base``, through ``getelementptr T, base, k``; None if it
        has another writer or escapes."""
        if base in self._only_store:
            return self._only_store[base]
        found: StoreInst | None = None
        ok = _fresh_allocation(base)
        for u in list(base.users) if ok else []:
            if isinstance(u, CallInst) and u.args == [base] and _is_free(u):
                continue
            if not isinstance(u, GEPInst) or u.operand(0) is not base or len(u.operands) != 2:
                ok = False
                break
            for g in u.users:
                if isinstance(g, LoadInst) and g.pointer is u and not g.volatile:
                    continue
                if isinstance(g, StoreInst) and g.pointer is u and g.value is not u and found is None \
                        and not (g.volatile or g.atomic):
                    found = g
                    continue
                ok = False
                break
            if not ok:
                break
        got = found if ok else None
        self._only_store[base] = got
        return got


def _fresh_allocation(v: Value) -> bool:
    if not isinstance(v, CallInst):
        return False
    mf = lookup_memory(v.callee_name or "")
    return mf is not None and mf.kind in (MemoryKind.ALLOC, MemoryKind.CALLOC) and mf.out is None


def _is_free(call: CallInst) -> bool:
    mf = lookup_memory(call.callee_name or "")
    return mf is not None and mf.kind is MemoryKind.FREE


def _counted_from_zero(iv: Value, loops: dict[Block, LoopPlan]) -> LoopPlan | None:
    """The loop of ``iv`` when ``iv`` is its counting induction variable: from 0, step 1, compared with
    the bound of the loop's trip count."""
    if not isinstance(iv, PhiInst):
        return None
    got = affine_iv(iv, loops)
    if got is None:
        return None
    lp, start, step = got
    trip = lp.trip
    if step != 1 or not isinstance(start, ConstantInt) or start.value != 0 or trip is None or trip.step != 1 \
            or not isinstance(trip.start, ConstantInt) or trip.start.value != 0 or trip.start.type != iv.type:
        return None
    return lp
