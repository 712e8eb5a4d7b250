"""Both analyses on clang-22 output of small C functions (-O2 and -O0)."""
from __future__ import annotations

import pytest

from enzyme.analysis import INTEGER, POINTER, TypeAnalysis, analyze_activity, float_type
from enzyme.ir import CallInst, LoadInst, Module, StoreInst

DOUBLE = float_type("double")


def types_of(m: Module, name: str):
    f = m.get_function(name)
    return f, TypeAnalysis(m).analyze(f)


@pytest.mark.parametrize("level", [0, 2])
def test_struct_fields_at_their_offsets(c_modules, level):
    f, info = types_of(c_modules[level], "weighted")
    mem = info.pointee_tree(f.args[0])
    assert [mem.at(k) for k in (0, 3)] == [INTEGER, INTEGER]
    assert mem.at(8) == DOUBLE
    assert mem.at(16) == POINTER and mem.at(16, -1) == DOUBLE
    if level == 2:  # TBAA says "long"; at -O0 it is only compared with the counter, which proves nothing
        assert mem.at(24) == INTEGER and mem.at(31) == INTEGER
    assert mem.at(24) in (None, INTEGER)
    assert not info.conflicts


@pytest.mark.parametrize("level", [0, 2])
def test_arrays_and_pointer_to_pointer(c_modules, level):
    f, info = types_of(c_modules[level], "sumsq")
    assert str(info.tree(f.args[0])) == "{[-1]:Pointer, [-1,-1]:Float@double}"
    f, info = types_of(c_modules[level], "matrix_sum")
    assert str(info.tree(f.args[0])) == "{[-1]:Pointer, [-1,-1]:Pointer, [-1,-1,-1]:Float@double}"


def test_tbaa_alone_types_integer_memory(c_modules):
    f, info = types_of(c_modules[2], "over_limit")
    assert info.pointee_type(f.args[0], 0) == INTEGER  # "long", only compared with a constant
    assert info.pointee_type(f.args[1], 8) == INTEGER  # "int"


@pytest.mark.parametrize("level", [0, 2])
def test_memcpy_of_doubles(c_modules, level):
    m = c_modules[level]
    f, info = types_of(m, "copied")
    tmp = next(i for i in f.instructions() if i.opcode == "alloca" and "8 x double" in str(i.allocated_type))
    assert info.pointee_type(tmp, 0) == DOUBLE
    r = analyze_activity(m, f, ["dup"], True)
    assert not r.is_constant_value(tmp)
    copy = next(i for i in f.instructions() if isinstance(i, CallInst) and "memcpy" in (i.callee_name or ""))
    assert not r.is_constant_instruction(copy)


@pytest.mark.parametrize("level", [0, 2])
def test_sum_of_squares_counters_constant(c_modules, level):
    m = c_modules[level]
    f = m.get_function("sumsq")
    r = analyze_activity(m, f, ["dup", "const"], True)
    loads = [i for i in f.instructions() if isinstance(i, LoadInst) and str(i.type) == "double"]
    assert loads and all(not r.is_constant_value(i) for i in loads)
    ints = [i for i in f.instructions() if str(i.type) in ("i32", "i64", "i1")]
    assert ints and all(r.is_constant_value(i) and r.is_constant_instruction(i) for i in ints)
    assert r.errors == []


@pytest.mark.parametrize("level", [0, 2])
def test_fptosi_result_is_constant(c_modules, level):
    m = c_modules[level]
    f = m.get_function("truncated")
    r = analyze_activity(m, f, ["active"], True)
    conv = [i for i in f.instructions() if i.opcode in ("fptosi", "sitofp")]
    assert conv and all(r.is_constant_value(i) for i in conv)


def test_const_scratch_buffer_reported_at_O0(c_modules):
    m = c_modules[0]
    f = m.get_function("scratch")
    r = analyze_activity(m, f, ["dup", "const", "dup"], False)
    assert r.errors
    assert any("funcs.c:45:" in e and "memory of argument %1" in e for e in r.errors), r.errors


def test_const_scratch_buffer_fine_at_O2(c_modules):
    # -O2 forwards the stored value, so nothing is read back from the const buffer: no error.
    m = c_modules[2]
    f = m.get_function("scratch")
    r = analyze_activity(m, f, ["dup", "const", "dup"], False)
    assert r.errors == []
    stores = [i for i in f.instructions() if isinstance(i, StoreInst)]
    assert [r.is_constant_instruction(s) for s in stores] == [True, False]


def test_calls_at_O0(c_modules):
    m = c_modules[0]
    f = m.get_function("calls")
    r = analyze_activity(m, f, ["active", "const"], True)
    first, second = [i for i in f.instructions() if isinstance(i, CallInst) and i.callee_name == "helper"]
    assert not r.is_constant_value(first)      # helper(x, y): x is active
    assert r.is_constant_value(second)         # helper(y, 3.0): y is const


@pytest.mark.parametrize("level", [0, 2])
def test_heap_scratch_is_active(c_modules, level):
    m = c_modules[level]
    f = m.get_function("heap_copy")
    r = analyze_activity(m, f, ["dup", "const"], True)
    malloc = next(i for i in f.instructions() if isinstance(i, CallInst) and i.callee_name == "malloc")
    free = next(i for i in f.instructions() if isinstance(i, CallInst) and i.callee_name == "free")
    assert not r.is_constant_value(malloc)
    assert not r.is_constant_instruction(free)


def test_source_locations_in_descriptions(c_modules):
    from enzyme.analysis import describe, source_location
    f = c_modules[2].get_function("sumsq")
    located = [source_location(i) for i in f.instructions() if i.get_metadata("dbg")]
    assert located and all(loc.split("/")[-1].startswith("funcs.c") for loc in located)
    load = next(i for i in f.instructions() if isinstance(i, LoadInst))
    assert describe(load).startswith("`%") and " in @sumsq at " in describe(load)
    assert "funcs.c:16:" in describe(load)
