"""Dominators, post-dominators and natural loops."""
from __future__ import annotations

from enzyme.ir import Block, parse_module
from enzyme.ir.builder import Builder, InsertPoint
from enzyme.ir.cfg import DominatorTree, LoopInfo, _rpo, normal_flow_order, reverse_post_order

NESTED = """
define void @n(i32 %n, i1 %c) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner ]
  %j1 = add i32 %j, 1
  %jc = icmp slt i32 %j1, %n
  br i1 %jc, label %inner, label %outer.latch
outer.latch:
  %i1 = add i32 %i, 1
  %ic = icmp slt i32 %i1, %n
  br i1 %ic, label %outer, label %check
check:
  br i1 %c, label %early, label %exit
early:
  ret void
exit:
  ret void
dead:
  br label %exit
}
"""


def _blocks(f):
    return {b.name: b for b in f.blocks}


def test_rpo_skips_unreachable_and_starts_at_entry():
    f = parse_module(NESTED).get_function("n")
    order = [b.name for b in reverse_post_order(f)]
    assert order[0] == "entry"
    assert "dead" not in order
    assert order.index("outer") < order.index("inner") < order.index("outer.latch")


def test_dominators():
    f = parse_module(NESTED).get_function("n")
    b = _blocks(f)
    dt = DominatorTree(f)
    assert dt.immediate(b["inner"]) is b["outer"]
    assert dt.immediate(b["exit"]) is b["check"]
    assert dt.dominates(b["outer"], b["early"])
    assert not dt.dominates(b["inner"], b["outer"])
    assert dt.immediate(b["entry"]) is None


def test_post_dominators_with_two_exits():
    f = parse_module(NESTED).get_function("n")
    b = _blocks(f)
    pdt = DominatorTree(f, post=True)
    assert pdt.immediate(b["inner"]) is b["outer.latch"]
    assert pdt.dominates(b["check"], b["entry"])
    assert not pdt.dominates(b["exit"], b["check"])   # two exits: only the virtual exit post-dominates
    assert pdt.immediate(b["check"]) is None


def test_loops_nest():
    f = parse_module(NESTED).get_function("n")
    b = _blocks(f)
    li = LoopInfo(f)
    assert len(li.loops) == 1
    outer = li.loops[0]
    assert outer.header is b["outer"]
    assert {x.name for x in outer.blocks} == {"outer", "inner", "outer.latch"}
    (inner,) = outer.children
    assert inner.header is b["inner"] and inner.depth == 2
    assert li.loop_of(b["inner"]) is inner
    assert li.loop_of(b["outer.latch"]) is outer
    assert outer.preheader is b["entry"]
    assert outer.exit_blocks == [b["check"]]
    assert inner.latches == [b["inner"]]


def _fresh_order(f):
    """The reverse post-order computed from scratch, bypassing the cache."""
    return _rpo([f.entry], lambda b: b.successors)


def test_rpo_is_reused_until_the_cfg_changes():
    f = parse_module(NESTED).get_function("n")
    b = _blocks(f)
    first = reverse_post_order(f)
    assert reverse_post_order(f) == first == _fresh_order(f)
    first.clear()  # callers get their own list
    assert reverse_post_order(f) == _fresh_order(f)

    # A branch retargeted: `dead` becomes reachable from `check`.
    check = b["check"].terminator
    check.set_operand(1, b["dead"])
    assert "dead" in [x.name for x in reverse_post_order(f)]
    assert reverse_post_order(f) == _fresh_order(f)

    # A terminator replaced by another (erased, then a new one built).
    b["check"].terminator.erase()
    Builder(InsertPoint.at_end(b["check"])).br(b["exit"])
    assert [x.name for x in reverse_post_order(f)][-1] == "exit"
    assert "early" not in [x.name for x in reverse_post_order(f)]
    assert reverse_post_order(f) == _fresh_order(f)


def test_rpo_follows_blocks_split_by_moving_instructions():
    f = parse_module(NESTED).get_function("n")
    b = _blocks(f)
    reverse_post_order(f)
    # Split `check` by moving its terminator into a new block (no operand changes at all).
    tail = f.append_block("check.tail")
    term = b["check"].instructions.pop()
    term.parent = None
    tail.append(term)
    Builder(InsertPoint.at_end(b["check"])).br(tail)
    names = [x.name for x in reverse_post_order(f)]
    assert names.index("check") < names.index("check.tail") < names.index("exit")
    assert reverse_post_order(f) == _fresh_order(f)


def test_rpo_follows_a_new_entry_block():
    f = parse_module(NESTED).get_function("n")
    old_entry = f.entry
    reverse_post_order(f)
    new = Block("start", f)
    f.blocks.insert(0, new)
    Builder(InsertPoint.at_end(new)).br(old_entry)
    assert [x.name for x in reverse_post_order(f)][:2] == ["start", "entry"]
    assert reverse_post_order(f) == _fresh_order(f)


def test_normal_flow_order_is_cached_apart_from_reverse_post_order():
    m = parse_module("""
declare void @g()
declare i32 @__gxx_personality_v0(...)
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %x = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %x
}
""")
    f = m.get_function("f")
    assert [x.name for x in reverse_post_order(f)] == ["entry", "lp", "ok"]
    assert [x.name for x in normal_flow_order(f)] == ["entry", "ok"]
    assert [x.name for x in reverse_post_order(f)] == ["entry", "lp", "ok"]
