"""Insertion points and a builder that creates instructions at one."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from . import instructions as I
from .blocks import Block, Function
from .types import I1, I64, FunctionType, IntType, StructType, Type, VectorType
from .values import ConstantFP, ConstantInt, Value


@dataclass(frozen=True)
class InsertPoint:
    """Where new instructions go: before ``before`` in ``block``, or at its end when ``before`` is None."""

    block: Block
    before: I.Instruction | None = None

    @classmethod
    def at_end(cls, block: Block) -> "InsertPoint":
        return cls(block, None)

    @classmethod
    def at_start(cls, block: Block) -> "InsertPoint":
        """After the phis (and landingpad) of ``block``."""
        i = block.first_non_phi_index()
        return cls(block, block.instructions[i] if i < len(block.instructions) else None)

    @classmethod
    def before_inst(cls, inst: I.Instruction) -> "InsertPoint":
        assert inst.parent is not None
        return cls(inst.parent, inst)

    @classmethod
    def after_inst(cls, inst: I.Instruction) -> "InsertPoint":
        b = inst.parent
        assert b is not None
        k = _position(b, inst) + 1
        return cls(b, b.instructions[k] if k < len(b.instructions) else None)

    @classmethod
    def before_terminator(cls, block: Block) -> "InsertPoint":
        return cls(block, block.terminator)


# Where the last ``after_inst`` or insertion found its instruction: (block id, position).  Callers walk a
# block forwards (the engine adds code after each instruction in turn, or before one instruction again and
# again), so the next search starts there instead of at the block's start, which made walking a block of n
# instructions cost n^2 / 2 steps.
_last_position: tuple[int, int] = (0, 0)


def _position(block: Block, inst: I.Instruction) -> int:
    global _last_position
    start = _last_position[1] if _last_position[0] == id(block) else 0
    try:
        k = block.instructions.index(inst, start)
    except ValueError:  # before the hint (or the hint is stale): search the whole block
        k = block.instructions.index(inst)
    _last_position = (id(block), k)
    return k


class Builder:
    """Creates instructions at an insertion point; every method returns the new instruction."""

    def __init__(self, at: InsertPoint | Block) -> None:
        self.ip = at if isinstance(at, InsertPoint) else InsertPoint.at_end(at)

    def position(self, at: InsertPoint | Block) -> None:
        self.ip = at if isinstance(at, InsertPoint) else InsertPoint.at_end(at)

    @property
    def block(self) -> Block:
        return self.ip.block

    @property
    def function(self) -> Function:
        assert self.ip.block.parent is not None
        return self.ip.block.parent

    def insert(self, inst: I.Instruction, name: str | None = None) -> I.Instruction:
        if name is not None:
            inst.name = name
        b = self.ip.block
        if self.ip.before is None:
            b.append(inst)
        else:
            b.insert(_position(b, self.ip.before), inst)
        return inst

    # -- arithmetic ----------------------------------------------------------
    def binop(self, opcode: str, a: Value, b: Value, name: str | None = None, flags: Sequence[str] = ()) -> Value:
        return self.insert(I.BinaryOperator(opcode, a, b, flags), name)

    def fadd(self, a: Value, b: Value, name: str | None = None) -> Value:
        return self.binop("fadd", a, b, name)

    def fsub(self, a: Value, b: Value, name: str | None = None) -> Value:
        return self.binop("fsub", a, b, name)

    def fmul(self, a: Value, b: Value, name: str | None = None) -> Value:
        return self.binop("fmul", a, b, name)

    def fdiv(self, a: Value, b: Value, name: str | None = None) -> Value:
        return self.binop("fdiv", a, b, name)

    def fneg(self, a: Value, name: str | None = None) -> Value:
        return self.insert(I.UnaryOperator("fneg", a), name)

    def add(self, a: Value, b: Value, name: str | None = None, flags: Sequence[str] = ()) -> Value:
        return self.binop("add", a, b, name, flags)

    def sub(self, a: Value, b: Value, name: str | None = None, flags: Sequence[str] = ()) -> Value:
        return self.binop("sub", a, b, name, flags)

    def mul(self, a: Value, b: Value, name: str | None = None, flags: Sequence[str] = ()) -> Value:
        return self.binop("mul", a, b, name, flags)

    def cast(self, opcode: str, x: Value, to: Type, name: str | None = None) -> Value:
        return self.insert(I.CastInst(opcode, x, to), name)

    def icmp(self, pred: str, a: Value, b: Value, name: str | None = None) -> Value:
        rt: Type = VectorType(a.type.count, I1) if isinstance(a.type, VectorType) else I1
        return self.insert(I.CmpInst("icmp", pred, a, b, rt), name)

    def fcmp(self, pred: str, a: Value, b: Value, name: str | None = None) -> Value:
        rt: Type = VectorType(a.type.count, I1) if isinstance(a.type, VectorType) else I1
        return self.insert(I.CmpInst("fcmp", pred, a, b, rt), name)

    def select(self, c: Value, a: Value, b: Value, name: str | None = None) -> Value:
        return self.insert(I.SelectInst(c, a, b), name)

    def phi(self, type: Type, name: str | None = None) -> I.PhiInst:
        """A phi at the start of the current block (phis must come first)."""
        phi = I.PhiInst(type)
        if name is not None:
            phi.name = name
        b = self.ip.block
        b.insert(len(b.phis()), phi)
        return phi

    # -- memory --------------------------------------------------------------
    def alloca(self, type: Type, count: Value | None = None, name: str | None = None,
               align: int | None = None) -> Value:
        return self.insert(I.AllocaInst(type, count, align), name)

    def load(self, type: Type, ptr: Value, name: str | None = None, align: int | None = None) -> Value:
        return self.insert(I.LoadInst(type, ptr, align), name)

    def store(self, value: Value, ptr: Value, align: int | None = None) -> I.Instruction:
        return self.insert(I.StoreInst(value, ptr, align))

    def gep(self, source_type: Type, ptr: Value, indices: Sequence[Value | int], name: str | None = None,
            inbounds: bool = False) -> Value:
        idx = [ConstantInt(I64, i) if isinstance(i, int) else i for i in indices]
        return self.insert(I.GEPInst(source_type, ptr, idx, None, ["inbounds"] if inbounds else []), name)

    # -- aggregates ------------------------------------------------------------
    def extractvalue(self, agg: Value, indices: Sequence[int], name: str | None = None) -> Value:
        t = agg.type
        for k in indices:
            t = t.elements[k] if isinstance(t, StructType) else t.element  # type: ignore[attr-defined]
        return self.insert(I.ExtractValueInst(agg, indices, t), name)

    def insertvalue(self, agg: Value, value: Value, indices: Sequence[int], name: str | None = None) -> Value:
        return self.insert(I.InsertValueInst(agg, value, indices), name)

    def extractelement(self, vec: Value, index: Value | int, name: str | None = None) -> Value:
        idx = ConstantInt(I64, index) if isinstance(index, int) else index
        return self.insert(I.ExtractElementInst(vec, idx), name)

    def insertelement(self, vec: Value, value: Value, index: Value | int, name: str | None = None) -> Value:
        idx = ConstantInt(I64, index) if isinstance(index, int) else index
        return self.insert(I.InsertElementInst(vec, value, idx), name)

    # -- calls and control flow ---------------------------------------------------
    def call(self, callee: Value, args: Sequence[Value], function_type: FunctionType | None = None,
             name: str | None = None, fn_attrs: str = "") -> I.CallInst:
        if function_type is None:
            function_type = getattr(callee, "function_type")
        inst = I.CallInst(function_type, callee, args, fn_attrs=fn_attrs)
        return self.insert(inst, name if not function_type.ret.is_void else None)  # type: ignore[return-value]

    def br(self, dest: Block) -> I.Instruction:
        return self.insert(I.BranchInst(dest))

    def cond_br(self, cond: Value, t: Block, f: Block) -> I.Instruction:
        return self.insert(I.BranchInst(cond, t, f))

    def switch(self, cond: Value, default: Block, cases: Sequence[tuple[int | Value, Block]] = ()) -> I.Instruction:
        cs = [(ConstantInt(cond.type, v) if isinstance(v, int) else v, b) for v, b in cases]
        return self.insert(I.SwitchInst(cond, default, cs))

    def ret(self, value: Value | None = None) -> I.Instruction:
        return self.insert(I.ReturnInst(value))

    def unreachable(self) -> I.Instruction:
        return self.insert(I.UnreachableInst())


def const_int(type: Type | int, value: int) -> ConstantInt:
    """``const_int(64, 3)`` or ``const_int(I32, 3)``."""
    return ConstantInt(IntType(type) if isinstance(type, int) else type, value)


def const_fp(type: Type, value: float) -> ConstantFP:
    return ConstantFP.of(type, value)

