"""The IR model: a Python representation of LLVM 22 IR with use-lists.

Everything is reachable from this package::

    from enzyme.ir import parse_module, print_module, Function, Block, Builder
"""
from __future__ import annotations

from .blocks import Block, Function, Module, RawEntity
from .instructions import (AllocaInst, AtomicRMWInst, BinaryOperator, BranchInst, CallInst, CastInst,
                           CmpInst, CmpXchgInst, DebugRecord, ExtractElementInst, ExtractValueInst, FenceInst,
                           FreezeInst, GEPInst, InsertElementInst, InsertValueInst, Instruction, InvokeInst,
                           LandingPadInst, LoadInst, OpaqueInst, PhiInst, ResumeInst, ReturnInst, SelectInst,
                           ShuffleVectorInst, StoreInst, SwitchInst, UnaryOperator, UnreachableInst, VAArgInst)
from .parser import parse_module
from .printer import FunctionPrinter, print_function, print_module
from .types import (DOUBLE, FLOAT, I1, I8, I32, I64, LABEL, PTR, VOID, ArrayType, FloatType, FunctionType,
                    IntType, NamedStructType, PointerType, StructType, Type, VectorType)
from .values import (Argument, Constant, ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt,
                     ConstantKeyword, ConstantText, GlobalAlias, GlobalValue, GlobalVariable, Use, User, Value,
                     strip_pointer_casts)

__all__ = [name for name in dir() if not name.startswith("_")]
