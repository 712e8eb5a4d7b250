"""Use-lists, editing and the builder of the IR model."""
from __future__ import annotations

import ctypes

import pytest

from enzyme import llvm
from enzyme.ir import (DOUBLE, I64, PTR, BinaryOperator, Function, FunctionType, parse_module,
                       print_module)
from enzyme.ir.builder import Builder, InsertPoint, const_fp, const_int

SRC = """
define double @f(double %x, double %y) {
entry:
  %a = fmul double %x, %y
  %b = fadd double %a, %x
  ret double %b
}
"""


def _canonical(text: str) -> str:
    mod = llvm.parse(text)
    llvm.verify(mod)
    return llvm.to_text(mod)


def test_use_lists_track_operands():
    m = parse_module(SRC)
    f = m.get_function("f")
    x, y = f.args
    a, b, ret = f.entry.instructions
    assert [u.user for u in x.uses] == [a, b]
    assert a.users == [b]
    assert b.users == [ret]
    b.set_operand(1, y)
    assert [u.user for u in x.uses] == [a]
    assert [u.user for u in y.uses] == [a, b]


def test_replace_all_uses_and_erase():
    m = parse_module(SRC)
    f = m.get_function("f")
    a, b, ret = f.entry.instructions
    with pytest.raises(ValueError, match="still used"):
        a.erase()
    a.replace_all_uses_with(f.args[1])
    assert not a.has_uses
    a.erase()
    assert f.entry.instructions == [b, ret]
    assert "fadd double %y, %x" in print_module(m)
    _canonical(print_module(m))


def test_unnamed_values_are_renumbered_after_insertion():
    m = parse_module("""
define double @g(double %0) {
  %2 = fmul double %0, %0
  ret double %2
}
""")
    f = m.get_function("g")
    mul = f.entry.instructions[0]
    bld = Builder(InsertPoint.before_inst(mul))
    extra = bld.fadd(f.args[0], const_fp(DOUBLE, 1.0))
    mul.set_operand(1, extra)
    text = print_module(m)
    assert "%2 = fadd double %0, 0x3FF0000000000000" in text
    assert "%3 = fmul double %0, %2" in text
    _canonical(text)


def test_builder_makes_a_function_that_runs():
    m = parse_module('target triple = "x86_64-pc-linux-gnu"\n')
    f = Function("axpy_sum", FunctionType(DOUBLE, (DOUBLE, PTR, I64)), arg_names=["a", "x", "n"])
    m.add(f)
    entry, loop, done = f.append_block("entry"), f.append_block("loop"), f.append_block("done")
    b = Builder(entry)
    b.br(loop)
    b.position(loop)
    i = b.phi(I64, "i")
    acc = b.phi(DOUBLE, "acc")
    p = b.gep(DOUBLE, f.args[1], [i], "p")
    v = b.load(DOUBLE, p, "v", align=8)
    acc2 = b.fadd(acc, b.fmul(f.args[0], v), "acc.next")
    i2 = b.add(i, const_int(I64, 1), "i.next")
    b.cond_br(b.icmp("slt", i2, f.args[2]), loop, done)
    i.add_incoming(const_int(I64, 0), entry)
    i.add_incoming(i2, loop)
    acc.add_incoming(const_fp(DOUBLE, 0.0), entry)
    acc.add_incoming(acc2, loop)
    b.position(done)
    b.ret(acc2)
    assert loop.predecessors == [entry, loop]
    assert loop.successors == [loop, done]
    jit = llvm.JIT(_canonical(print_module(m)))
    fn = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_double, ctypes.POINTER(ctypes.c_double), ctypes.c_int64)(
        jit.address("axpy_sum"))
    xs = (ctypes.c_double * 4)(1.0, 2.0, 3.0, 4.0)
    assert fn(2.0, xs, 4) == 20.0


def test_module_add_picks_unique_names_and_rejects_duplicates():
    m = parse_module(SRC)
    assert m.unique_name("f") == "f.1"
    with pytest.raises(ValueError, match="already defines"):
        m.add(Function("f", FunctionType(DOUBLE, ())))


def test_phi_incoming_editing():
    m = parse_module("""
define i32 @h(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %j
b:
  br label %j
j:
  %p = phi i32 [ 1, %a ], [ 2, %b ]
  ret i32 %p
}
""")
    f = m.get_function("h")
    j = f.blocks[3]
    phi = j.instructions[0]
    assert [blk.name for _, blk in phi.incoming] == ["a", "b"]
    assert phi.value_for(f.blocks[2]).value == 2
    assert j.predecessors == [f.blocks[1], f.blocks[2]]
    phi.remove_incoming(f.blocks[1])
    assert [blk.name for _, blk in phi.incoming] == ["b"]
    assert j.predecessors == [f.blocks[1], f.blocks[2]]  # branches still reach j


def test_quoted_and_clashing_names_print_validly():
    m = parse_module(SRC)
    f = m.get_function("f")
    a = f.entry.instructions[0]
    bld = Builder(InsertPoint.after_inst(a))
    t1 = bld.fadd(a, a, "a")          # clashes with %a
    t2 = bld.fadd(t1, t1, "we ird")   # needs quotes
    f.entry.instructions[-2].set_operand(0, t2)
    text = print_module(m)
    assert '%"we ird"' in text
    _canonical(text)


def test_binary_operator_keeps_flags():
    m = parse_module("""
define i32 @k(i32 %a) {
  %1 = add nuw nsw i32 %a, 1
  %2 = fadd fast float 1.0, 2.0
  ret i32 %1
}
""")
    inst = m.get_function("k").entry.instructions[0]
    assert isinstance(inst, BinaryOperator) and inst.flags == ["nuw", "nsw"]
    assert "add nuw nsw i32 %a, 1" in print_module(m)


def test_operands_tuple_is_shared_until_an_operand_changes():
    m = parse_module(SRC)
    f = m.get_function("f")
    x, y = f.args
    a, b, ret = f.entry.instructions
    first = b.operands
    assert first == (a, x) and b.operands is first  # read twice: one tuple
    b.set_operand(1, y)
    assert b.operands == (a, y) and b.operands is not first
    a.replace_all_uses_with(x)
    assert b.operands == (x, y) and ret.operands == (b,)
    copy = b.clone()
    assert copy.operands == (x, y) and copy.operands is not b.operands
    b.drop_operands()
    assert b.operands == () and copy.operands == (x, y)


def test_operands_follow_phi_incoming_edits():
    m = parse_module("""
define i32 @h(i1 %c) {
entry:
  br i1 %c, label %a, label %j
a:
  br label %j
j:
  %p = phi i32 [ 1, %entry ], [ 2, %a ]
  ret i32 %p
}
""")
    f = m.get_function("h")
    entry, a, j = f.blocks
    phi = j.instructions[0]
    before = phi.operands
    phi.remove_incoming(entry)
    assert [blk for _, blk in phi.incoming] == [a] and phi.operands != before
    phi.add_incoming(const_int(phi.type, 3), entry)
    assert phi.operands[-1] is entry and len(phi.operands) == 4
