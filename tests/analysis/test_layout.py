"""Data layout: sizes, alignments and struct offsets for the targets pyenzyme compiles for."""
from __future__ import annotations

from enzyme.analysis import DataLayout
from enzyme.analysis.type_offsets import gep_offset
from enzyme.ir import (DOUBLE, FLOAT, I8, I32, I64, PTR, ArrayType, ConstantInt, FloatType, IntType, PointerType,
                       StructType, VectorType, parse_module)

X86 = DataLayout.parse("e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128")
NVPTX = DataLayout.parse("e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64")
AMDGPU = DataLayout.parse(
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48"
    "-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
    "-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9")


def test_struct_with_mixed_fields():
    s = StructType((I32, DOUBLE, PTR, I8))
    assert X86.struct_offsets(s) == [0, 8, 16, 24]
    assert X86.alloc_size(s) == 32
    assert X86.abi_align(s) == 8


def test_packed_struct_and_arrays():
    packed = StructType((I8, I64), packed=True)
    assert X86.struct_offsets(packed) == [0, 1]
    assert X86.alloc_size(packed) == 9
    assert X86.alloc_size(ArrayType(3, StructType((DOUBLE, I32)))) == 48


def test_scalars_vectors_and_long_double():
    assert X86.alloc_size(FloatType("x86_fp80")) == 16
    assert X86.store_size(FloatType("x86_fp80")) == 10
    assert X86.alloc_size(VectorType(3, FLOAT)) == 16  # padded to its power-of-two alignment
    assert X86.abi_align(VectorType(4, DOUBLE)) == 32
    assert X86.abi_align(IntType(128)) == 16


def test_default_is_x86_64():
    assert DataLayout.parse(None).struct_offsets(StructType((I32, DOUBLE))) == [0, 8]
    assert DataLayout.of_module(parse_module("define void @f() {\n  ret void\n}\n")).pointer_size() == 8


def test_gpu_pointer_sizes():
    assert NVPTX.pointer_size(0) == 8
    assert NVPTX.pointer_size(6) == 4
    assert AMDGPU.pointer_size(5) == 4  # private (stack) pointers are 32-bit
    assert AMDGPU.store_size(PointerType(7)) == 20
    assert AMDGPU.struct_offsets(StructType((PointerType(5), DOUBLE))) == [0, 8]


def test_gep_offsets():
    s = StructType((I32, ArrayType(4, DOUBLE)))
    const, strides = gep_offset(X86, s, [ConstantInt(I64, 1), ConstantInt(I32, 1), ConstantInt(I64, 2)])
    assert (const, strides) == (40 + 8 + 16, [])
    var = parse_module("define void @f(i64 %i) {\n  ret void\n}\n").get_function("f").args[0]
    const, strides = gep_offset(X86, s, [ConstantInt(I64, 0), ConstantInt(I32, 1), var])
    assert (const, strides) == (8, [8])
