"""Type analysis on hand-written IR: each transfer rule, interprocedural use, conflicts."""
from __future__ import annotations

import pytest

from enzyme.analysis import INTEGER, POINTER, TypeAnalysis, TypeTree, float_type
from enzyme.errors import DifferentiationError
from enzyme.ir import parse_module

DOUBLE = float_type("double")
FLOAT = float_type("float")


def analyze(text: str, fname: str = "f", arg_trees=None):
    m = parse_module(text)
    f = m.get_function(fname)
    info = TypeAnalysis(m).analyze(f, arg_trees)
    values = {a.name: a for a in f.args}
    values.update({i.name: i for i in f.instructions() if i.name})
    return info, values


def test_ir_types_seed_floats_pointers_and_bools():
    info, v = analyze("""
define i1 @f(double %x, float %y, ptr %p, i64 %n) {
  %c = fcmp olt double %x, 0.0
  ret i1 %c
}""")
    assert str(info.tree(v["x"])) == "{[-1]:Float@double}"
    assert info.float_kind(v["y"]) == "float"
    assert info.is_pointer(v["p"])
    assert info.is_integer(v["n"])  # integer arguments default to Integer (enzyme_const)
    assert info.is_integer(v["c"])


def test_integer_arguments_need_not_be_integers():
    info, v = analyze("define i64 @f(i64 %n) {\n  ret i64 %n\n}", arg_trees=[TypeTree()])
    assert str(info.tree(v["n"])) == "{}"
    assert info.may_carry_float(v["n"])


def test_phi_select_and_casts():
    info, v = analyze("""
define double @f(i1 %c, i32 %k, double %x) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %i = phi i32 [ 0, %entry ], [ %k, %a ]
  %w = zext i32 %i to i64
  %d = sitofp i64 %w to double
  %s = select i1 %c, double %d, double %x
  %bits = bitcast double %s to i64
  %back = bitcast i64 %bits to double
  %t = fptosi double %back to i32
  ret double %back
}""")
    assert info.is_integer(v["i"]) and info.is_integer(v["w"]) and info.is_integer(v["t"])
    assert info.is_float(v["bits"])
    assert not info.may_carry_float(v["t"])
    assert info.may_carry_float(v["bits"])


def test_store_types_pointee_and_load_types_value():
    info, v = analyze("""
define void @f(ptr %p, ptr %q, double %x) {
  %g = getelementptr inbounds i8, ptr %p, i64 24
  store double %x, ptr %g
  %y = load i64, ptr %q
  %z = mul i64 %y, 2
  ret void
}""")
    assert info.pointee_type(v["p"], 24) == DOUBLE
    assert info.pointee_type(v["p"], 0) is None
    assert info.pointee_tree(v["q"]).at(7) == INTEGER


def test_variable_index_means_every_element():
    info, v = analyze("""
define float @f(ptr %a, i64 %i) {
  %p = getelementptr inbounds [8 x float], ptr %a, i64 0, i64 %i
  %x = load float, ptr %p
  ret float %x
}""")
    assert str(info.tree(v["a"])) == "{[-1]:Pointer, [-1,-1]:Float@float}"


def test_struct_array_index_keeps_field_offsets():
    info, v = analyze("""
%P = type { i32, double }
define double @f(ptr %a, i64 %i) {
  %p = getelementptr inbounds %P, ptr %a, i64 %i, i32 1
  %x = load double, ptr %p
  %q = getelementptr inbounds %P, ptr %a, i64 %i, i32 0
  %n = load i32, ptr %q
  %m = mul i32 %n, 2
  ret double %x
}""")
    mem = info.pointee_tree(v["a"])
    assert mem.at(8) == DOUBLE and mem.at(0) == INTEGER and mem.at(3) == INTEGER


def test_array_inside_a_record_types_only_its_elements():
    """``c[i].nbr[q]`` in an array of ``{int nbr[4]; double u;}``: the integers are bytes 0..15 of each
    record, not every byte (a wildcard there once made a whole-record copy look integer-only)."""
    info, v = analyze("""
%Cell = type { [4 x i32], double }
define double @f(ptr %c, i64 %i, i64 %q) {
  %p = getelementptr inbounds %Cell, ptr %c, i64 %i, i32 0, i64 %q
  %n = load i32, ptr %p
  %m = mul i32 %n, 2
  %pu = getelementptr inbounds %Cell, ptr %c, i64 %i, i32 1
  %u = load double, ptr %pu
  ret double %u
}""")
    mem = info.pointee_tree(v["c"])
    assert mem.at(-1) is None
    assert all(mem.at(b) == INTEGER for b in range(16)) and mem.at(16) == DOUBLE


def test_int_pointer_into_a_record_array_gives_no_wildcard_to_the_array():
    """``int *nbr = c[i].nbr; nbr[q]``: the int-array wildcard of ``nbr`` does not reach ``c``, whose records
    hold a double; a wildcard that some byte contradicts is not trusted by queries either."""
    info, v = analyze("""
%Cell = type { [4 x i32], double }
define double @f(ptr %c, i64 %i, i64 %q) {
  %rec = getelementptr inbounds %Cell, ptr %c, i64 %i
  %p = getelementptr inbounds i32, ptr %rec, i64 %q
  %n = load i32, ptr %p
  %m = mul i32 %n, 2
  %pu = getelementptr inbounds i8, ptr %rec, i64 16
  %u = load double, ptr %pu
  ret double %u
}""")
    assert info.pointee_tree(v["c"]).at(-1) is None
    assert not info.pointee_is_integer_only(v["c"]) and not info.is_integer_memory(v["c"], 24)
    assert not info.pointee_is_integer_only(v["rec"])


def test_byte_offset_by_a_computed_count_is_not_a_char_array():
    """``(char *)dst + nbytes`` then an ``int`` stored there (libstdc++'s relocation returns ``result + count``):
    the destination is not an array of integer bytes (a wildcard there once made a vector of
    ``{int i, j; double rest, k;}`` look pointer-free and integer-only, and its adjoints were dropped)."""
    info, v = analyze("""
define void @f(ptr %dst, i64 %nbytes) {
  %end = getelementptr inbounds i8, ptr %dst, i64 %nbytes
  store i32 7, ptr %end
  ret void
}""")
    assert info.pointee_tree(v["dst"]).at(-1) is None
    assert not info.pointee_is_integer_only(v["dst"])


def test_aggregates_and_vectors():
    info, v = analyze("""
define double @f({ double, ptr } %s, <2 x double> %vec) {
  %x = extractvalue { double, ptr } %s, 0
  %p = extractvalue { double, ptr } %s, 1
  %t = insertvalue { double, i64 } undef, i64 3, 1
  %e = extractelement <2 x double> %vec, i32 1
  ret double %x
}""")
    assert str(info.tree(v["s"])) == "{[0]:Float@double, [8]:Pointer}"
    assert info.is_float(v["x"]) and info.is_pointer(v["p"]) and info.is_float(v["e"])
    assert str(info.tree(v["vec"])) == "{[-1]:Float@double}"


def test_known_functions():
    info, v = analyze("""
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @frexp(double, ptr)
declare void @sincos(double, ptr, ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define double @f(double %x, i64 %n, ptr %dst) {
  %m = call ptr @malloc(i64 %n)
  %e = alloca i32
  %fr = call double @frexp(double %x, ptr %e)
  %s = alloca double
  %c = alloca double
  call void @sincos(double %x, ptr %s, ptr %c)
  store double %fr, ptr %m
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %m, i64 8, i1 false)
  call void @free(ptr %m)
  ret double %fr
}""")
    assert info.is_pointer(v["m"])
    assert info.pointee_type(v["e"], 0) == INTEGER
    assert info.pointee_type(v["s"], 0) == DOUBLE
    assert info.pointee_type(v["dst"], 0) == DOUBLE


def test_memory_functions_by_operand_role():
    """bcopy takes its source first; mempcpy returns dst + n; bzero has no fill byte (the memory table's roles)."""
    info, v = analyze("""
declare void @bcopy(ptr, ptr, i64)
declare ptr @mempcpy(ptr, ptr, i64)
declare void @bzero(ptr, i64)
declare ptr @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc(i64, i64)
define void @f(ptr %src, ptr %dst, ptr %out, ptr %z, i64 %n) {
  %x = load double, ptr %src
  call void @bcopy(ptr %src, ptr %dst, i64 16)
  %tail = getelementptr inbounds i8, ptr %out, i64 8
  store ptr %z, ptr %tail
  %end = call ptr @mempcpy(ptr %out, ptr %src, i64 8)
  call void @bzero(ptr %z, i64 %n)
  %r = call ptr @_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc(i64 %n, i64 8)
  ret void
}""")
    assert info.pointee_type(v["dst"], 0) == DOUBLE  # copied from src, not into it
    assert info.pointee_type(v["out"], 0) == DOUBLE and info.pointee_type(v["end"], 0) == POINTER  # out + 8
    assert info.is_integer(v["n"]) and info.is_pointer(v["z"])
    assert info.is_pointer(v["r"])


def test_interprocedural_callee_types_flow_back():
    info, v = analyze("""
define internal double @get(ptr %p, i64 %i) {
  %q = getelementptr inbounds double, ptr %p, i64 %i
  %x = load double, ptr %q
  ret double %x
}
define double @f(ptr %a) {
  %r = call double @get(ptr %a, i64 2)
  ret double %r
}""")
    assert str(info.tree(v["a"])) == "{[-1]:Pointer, [-1,-1]:Float@double}"
    assert info.is_float(v["r"])


def test_recursion_terminates():
    info, v = analyze("""
define double @f(ptr %p, i32 %n) {
entry:
  %c = icmp eq i32 %n, 0
  br i1 %c, label %done, label %rec
rec:
  %m = sub i32 %n, 1
  %x = load double, ptr %p
  %next = getelementptr inbounds i8, ptr %p, i64 8
  %r = call double @f(ptr %next, i32 %m)
  %s = fadd double %x, %r
  ret double %s
done:
  ret double 0.0
}""")
    assert info.pointee_type(v["p"], 0) == DOUBLE


def test_globals_and_constant_expressions():
    info, v = analyze("""
@tab = internal global { i32, [3 x double] } zeroinitializer
define double @f() {
  %x = load double, ptr getelementptr inbounds (i8, ptr @tab, i64 16)
  ret double %x
}""")
    m_tab = info.tree(info.function.module.get("tab"))
    assert m_tab.at(-1, 16) == DOUBLE
    assert info.is_float(v["x"])


def test_conflict_raises_with_source_location():
    m = parse_module("""
define i64 @f(ptr %u) {
  %d = load double, ptr %u
  %i = load i64, ptr %u
  %j = mul i64 %i, 3, !dbg !10
  ret i64 %j
}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1)
!1 = !DIFile(filename: "u.c", directory: "/src")
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, unit: !0)
!10 = !DILocation(line: 4, column: 9, scope: !5)
""")
    info = TypeAnalysis(m).analyze(m.get_function("f"))
    assert info.conflicts
    with pytest.raises(DifferentiationError, match=r"holds both .* at u.c:4:9"):
        info.raise_on_conflicts()


def test_memoized_per_argument_trees():
    m = parse_module("define double @f(ptr %p) {\n  %x = load double, ptr %p\n  ret double %x\n}\n")
    ta = TypeAnalysis(m)
    f = m.get_function("f")
    assert ta.analyze(f) is ta.analyze(f)
    other = ta.analyze(f, [TypeTree({(-1,): POINTER, (-1, 8): DOUBLE})])
    assert other is not ta.analyze(f)
    assert other.pointee_type(f.args[0], 8) == DOUBLE


def test_declarations_are_refused():
    m = parse_module("declare double @g(double)\n")
    with pytest.raises(DifferentiationError, match="no body"):
        TypeAnalysis(m).analyze(m.get_function("g"))


def test_return_tree_from_the_caller():
    m = parse_module("define i64 @f(ptr %p) {\n  %x = load i64, ptr %p\n  ret i64 %x\n}\n")
    f = m.get_function("f")
    info = TypeAnalysis(m).analyze(f, ret_tree=TypeTree({(-1,): DOUBLE}))
    assert info.pointee_type(f.args[0], 0) == DOUBLE  # the caller knows the i64 is a double's bits


def test_contexts_are_the_call_sites_last_answers():
    """A call site analysed again once its caller knows more (here: ``@get`` shows the bytes are an int)
    replaces its earlier context: the copy's i32 is an integer in every context that holds."""
    m = parse_module('''
define void @copy(ptr %d, ptr %s) {
  %v = load i32, ptr %s
  store i32 %v, ptr %d
  ret void
}
define double @get(ptr %q) {
  %v = load i32, ptr %q
  %c = sitofp i32 %v to double
  ret double %c
}
define void @caller(ptr %a, ptr %b) {
  call void @copy(ptr %b, ptr %a)
  %c = call double @get(ptr %a)
  ret void
}''')
    ta = TypeAnalysis(m)
    ta.analyze(m.get_function("caller"))
    copy = m.get_function("copy")
    load = next(iter(copy.instructions()))
    contexts = ta.contexts(copy)
    assert contexts and all(info.is_integer(load) for info in contexts)
    standalone = ta.analyze(copy)  # asked for from outside: a context of its own
    assert standalone in ta.contexts(copy) and not standalone.is_integer(load)


def test_integer_difference_makes_its_operands_integers():
    # (hi - lo) / 2 is an integer, lo is one (a GEP index): hi is no pointer (that would give a pointer).
    info, v = analyze("""
define i64 @f(ptr %s, ptr %a) {
  %hp = getelementptr inbounds i8, ptr %s, i64 8
  %hi = load i64, ptr %hp
  %lo = load i64, ptr %s
  %e = getelementptr inbounds double, ptr %a, i64 %lo
  %d = sub nsw i64 %hi, %lo
  %h = sdiv i64 %d, 2
  ret i64 %h
}""", arg_trees=[TypeTree(), TypeTree()])
    assert info.is_integer(v["d"]) and info.is_integer(v["lo"]) and info.is_integer(v["hi"])


# libstdc++'s std::string as clang describes it in TBAA, and a pair<const string, double> holding one.
STRING_TBAA = """
!0 = !{!"omnipotent char", !1, i64 0}
!1 = !{!"Simple C++ TBAA"}
!2 = !{!"long", !0, i64 0}
!3 = !{!"any pointer", !0, i64 0}
!4 = !{!"_ZTSNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE12_Alloc_hiderE", !3, i64 0}
!5 = !{!"_ZTSNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", !4, i64 0, !2, i64 8, !0, i64 16}
!6 = !{!5, !2, i64 8}
!7 = !{!"double", !0, i64 0}
!8 = !{!"_ZTSSt4pairIKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEdE", !5, i64 0, !7, i64 32}
!9 = !{!8, !7, i64 32}
!10 = !{!0, !0, i64 0}
"""


def test_string_layout_from_its_tbaa_name():
    # The short-string buffer union is only ever copied (a char-tagged i64): the string's layout types it.
    info, v = analyze("""
define void @f(ptr %node, ptr %key) {
  %len = getelementptr inbounds i8, ptr %key, i64 8
  %n = load i64, ptr %len, !tbaa !6
  %buf = getelementptr inbounds i8, ptr %key, i64 16
  %u = load i64, ptr %buf, !tbaa !10
  %val = getelementptr inbounds i8, ptr %node, i64 32
  %x = load double, ptr %val, !tbaa !9
  %nbuf = getelementptr inbounds i8, ptr %node, i64 16
  store i64 %u, ptr %nbuf, !tbaa !10
  ret void
}""" + STRING_TBAA, arg_trees=[TypeTree(), TypeTree()])
    assert info.is_integer(v["u"])
    key = info.tree(v["key"]).pointee()
    assert key.at(8) == INTEGER and key.at(24) == INTEGER  # (offset 0 lies before the one tagged access)
    node = info.tree(v["node"]).pointee()
    assert node.at(16) == INTEGER and node.at(23) == INTEGER and node.at(32) == DOUBLE


def test_no_float_extent_of_a_string_buffer():
    from enzyme.analysis.layout import DataLayout
    from enzyme.analysis.tbaa import no_float_extent
    m = parse_module("""
define void @f(ptr %node, ptr %key, ptr %other) {
  %len = getelementptr inbounds i8, ptr %key, i64 8
  %n = load i64, ptr %len, !tbaa !6
  %buf = getelementptr inbounds i8, ptr %key, i64 16
  %val = getelementptr inbounds i8, ptr %node, i64 32
  %x = load double, ptr %val, !tbaa !9
  %nbuf = getelementptr inbounds i8, ptr %node, i64 16
  %o = getelementptr inbounds i8, ptr %other, i64 16
  ret void
}""" + STRING_TBAA)
    f = m.get_function("f")
    v = {i.name: i for i in f.instructions() if i.name}
    dl = DataLayout.of_module(m)
    assert no_float_extent(v["buf"], dl) == 16  # to the end of the string
    assert no_float_extent(v["nbuf"], dl) == 16  # the pair's string ends where its double starts
    assert no_float_extent(v["val"], dl) == 0
    assert no_float_extent(v["o"], dl) == 0  # nothing known of %other
