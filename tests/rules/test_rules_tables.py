"""Name mapping of the rule tables, and consistency between them."""
from __future__ import annotations

import pytest

from enzyme.rules import (
    MATH,
    MEMORY,
    NO_RULE_REASON,
    SPECIAL,
    MemoryKind,
    canonical_name,
    inactive_reason,
    is_known_inactive,
    is_special,
    lookup,
    lookup_memory,
    no_rule_reason,
)
from enzyme.rules.memory import Returns
from enzyme.rules.names import intrinsic_base, libm_base

# -- math names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "key"), [
    ("sin", "sin"), ("sinf", "sin"), ("sinl", "sin"), ("sinf128", "sin"), ("sinf64x", "sin"), ("sinf32", "sin"),
    ("llvm.sin.f64", "sin"), ("llvm.sin.f32", "sin"), ("llvm.sin.v2f64", "sin"), ("llvm.sin.nxv4f32", "sin"),
    ("__sin_finite", "sin"), ("__expf_finite", "exp"), ("__atan2_finite", "atan2"),
    ("erf", "erf"), ("erff", "erf"), ("erfl", "erf"), ("erfc", "erfc"), ("erfcf", "erfc"),
    ("fmod", "fmod"), ("fmodf", "fmod"), ("fmaf", "fma"), ("fmaxf", "fmax"), ("fminl", "fmin"),
    ("logb", "logb"), ("logbf", "logb"), ("exp2f", "exp2"), ("log1pl", "log1p"), ("expm1f", "expm1"),
    ("llvm.powi.f64.i32", "powi"), ("llvm.powi.v4f32.i32", "powi"), ("__powidf2", "powi"), ("__powisf2", "powi"),
    ("llvm.ldexp.f64.i32", "ldexp"), ("ldexpf", "ldexp"), ("scalbnf", "scalbn"),
    ("llvm.lround.i64.f64", "lround"), ("llrintf", "llrint"),
    ("llvm.minnum.f32", "minnum"), ("llvm.maximum.v2f64", "maximum"), ("llvm.fmuladd.v2f64", "fmuladd"),
    ("llvm.arithmetic.fence.f64", "arithmetic.fence"), ("llvm.canonicalize.f32", "canonicalize"),
    ("fminimum_numf", "fminimum_num"), ("nexttowardf", "nexttoward"), ("j0f", "j0"), ("y1l", "y1"),
])
def test_lookup_finds_every_spelling(name, key):
    assert canonical_name(name) == key
    assert lookup(name) is MATH[key]


@pytest.mark.parametrize("name", [
    "minnum", "powi", "fmuladd", "canonicalize",     # intrinsic-only: a C function of that name is the user's
    "sinff", "foo", "sine", "f", "l", "", "llvm.foo.f64", "llvm.experimental.constrained.sin.f64",
    "modf", "modff", "llvm.frexp.f64.i32", "sincos", "llvm.sincos.f64", "remquo",             # SPECIAL
    "jn", "cexp", "cabsf",                                           # NO_RULE_REASON, complex_functions.py
    "memcpy", "printf", "llvm.memcpy.p0.p0.i64",
])
def test_lookup_misses(name):
    assert lookup(name) is None


@pytest.mark.parametrize(("name", "key"), [
    ("tgamma", "tgamma"), ("tgammaf", "tgamma"), ("tgammal", "tgamma"), ("lgamma", "lgamma"), ("lgammaf", "lgamma"),
    ("gamma", "gamma"), ("lgamma_r", "lgamma_r"), ("lgammaf_r", "lgamma_r"), ("lgammal_r", "lgamma_r"),
    ("frexp", "frexp"), ("frexpf", "frexp"), ("frexpl", "frexp"),
])
def test_gamma_and_frexp_libm_forms_have_rules(name, key):
    assert canonical_name(name) == key and lookup(name) is MATH[key] and not is_special(name)


@pytest.mark.parametrize("name", ["llvm.frexp.f64.i32", "modf", "modff", "modfl",
                                  "llvm.modf.v2f32", "sincos", "sincosf", "llvm.sincos.f64", "remquof",
                                  "llvm.sincospi.f32"])
def test_special_functions(name):
    assert is_special(name) and lookup(name) is None and no_rule_reason(name) is None


def test_no_rule_reasons_name_the_problem():
    assert no_rule_reason("tgammaf") is None and "integer order" in no_rule_reason("jn")
    assert no_rule_reason("cexp") is None and "complex" in no_rule_reason("casinf")  # complex_functions.py
    assert "approximation" in no_rule_reason("llvm.x86.avx.rsqrt.ps.256")
    assert no_rule_reason("sin") is None and no_rule_reason("foo") is None


def test_no_rule_entries_have_no_rule_and_tables_are_disjoint():
    for name in NO_RULE_REASON:
        assert name not in MATH and lookup(name) is None and not is_special(name), name
        assert NO_RULE_REASON[name]
    assert set(SPECIAL) & set(MATH) == {"frexp"}  # the libm form has a rule, llvm.frexp ({m, e}) is special
    for name in (*MATH, *SPECIAL, *NO_RULE_REASON):
        assert not is_known_inactive(name), name
        assert lookup_memory(name) is None, name


def test_all_zero_rules_are_integer_valued_functions():
    zero = {n for n, r in MATH.items() if all(p is None for p in r.partials)}
    assert zero == {"floor", "ceil", "trunc", "round", "roundeven", "rint", "nearbyint", "logb", "lround",
                    "llround", "lrint", "llrint", "ilogb"}


def test_name_helpers():
    assert intrinsic_base("llvm.memcpy.p0.p0.i64") == "memcpy"
    assert intrinsic_base("llvm.lifetime.start.p0") == "lifetime.start"
    assert intrinsic_base("llvm.exp2.f32") == "exp2" and intrinsic_base("llvm.log2") == "log2"
    assert intrinsic_base("sin") is None
    assert libm_base("sinf32x", {"sin"}) == "sin" and libm_base("erf", {"erf"}) == "erf"
    assert libm_base("erff", {"erf"}) == "erf" and libm_base("er", {"erf"}) is None


# -- inactive functions -------------------------------------------------------------------------------

INACTIVE = [
    "printf", "fprintf", "puts", "putchar", "fputs", "fwrite", "fflush", "fopen", "fclose", "__printf_chk",
    "snprintf", "clock", "time", "gettimeofday", "clock_gettime", "rand", "srand", "random", "drand48",
    "strlen", "strcmp", "strcpy", "memcmp", "strtol", "atoi", "atof", "strtod", "abort", "exit",
    "__assert_fail", "__cxa_throw", "__cxa_allocate_exception", "__cxa_guard_acquire", "malloc_usable_size",
    "llvm.lifetime.start.p0", "llvm.lifetime.end.p0", "llvm.assume", "llvm.dbg.value", "llvm.dbg.declare",
    "llvm.experimental.noalias.scope.decl", "llvm.invariant.start.p0", "llvm.prefetch.p0", "llvm.stacksave.p0",
    "llvm.stackrestore.p0", "llvm.trap", "llvm.expect.i1", "llvm.expect.with.probability.i64", "llvm.umax.i64",
    "llvm.is.fpclass.f64", "llvm.nvvm.read.ptx.sreg.tid.x", "llvm.amdgcn.workitem.id.x",
    # C++ streams and libstdc++ throw helpers (as clang++-22 -O2 emits them for `std::cout << x << std::endl`)
    "_ZNSolsEd", "_ZNSo9_M_insertIdEERSoT_", "_ZNSo3putEc", "_ZNSo5flushEv", "_ZNKSt5ctypeIcE13_M_widen_initEv",
    "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc", "_ZSt16__throw_bad_castv",
    "_ZSt20__throw_length_errorPKc", "_ZNSt8ios_base4InitC1Ev", "__gxx_personality_v0", "_Unwind_Resume",
    # Fortran runtime output
    "_FortranAioBeginExternalListOutput", "_FortranAioOutputReal64", "_FortranAioEndIoStatement",
    "_FortranAStopStatement", "_FortranAProgramEndStatement",
    # Rust, v0 mangling as rustc 1.95 emits it, and legacy mangling
    "_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check", "_RNvNtCsgEmfK2I1SDS_4core9panicking9panic_fmt",
    "_RNvXs7_NtNtCsgEmfK2I1SDS_4core3fmt5floatdNtB7_7Display3fmt",
    "_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio6__print", "_RNvNtNtCslNYArtu3iFV_5alloc7raw_vec12handle_error",
    "_RNvCsfLfy6EI15iL_7___rustc35___rust_no_alloc_shim_is_unstable_v2", "rust_eh_personality",
    "_ZN4core9panicking5panic17h0123456789abcdefE", "_ZN3std2io5stdio6_print17h0123456789abcdefE",
    "_ZN4core3fmt9Formatter9write_str17h0123456789abcdefE",
    # Rust HashMap/RefCell paths (rs_building_thermal): std's random hash seed, hashbrown's allocation failure,
    # RefCell's borrow panics; funnel shifts (SipHash) and saturating float-to-int conversions
    "_RNvNtNtNtCsjrHSEGnQ3l9_3std3sys6random5linux19hashmap_random_keys",
    "_RNvMNtCsgvbsrvnw3yD_9hashbrown3rawNtB2_11Fallibility17capacity_overflow",
    "_RNvMNtCsgvbsrvnw3yD_9hashbrown3rawNtB2_11Fallibility9alloc_err",
    "_RNvNtCsgEmfK2I1SDS_4core4cell22panic_already_borrowed", "llvm.fshl.i64", "llvm.fptoui.sat.i64.f64",
    # flang descriptor queries
    "_FortranAIsContiguous", "_FortranASize", "_FortranALbound",
]
ACTIVE_OR_UNKNOWN = [
    "sin", "memcpy", "memmove", "llvm.memcpy.p0.p0.i64", "malloc", "free", "my_function", "printf_like_but_not",
    "fread", "scanf", "__isoc99_sscanf", "read", "getrandom",          # overwrite caller memory
    "_FortranAioInputReal64", "_ZNSirsERd",                             # input into variables
    "llvm.launder.invariant.group.p0", "llvm.threadlocal.address.p0",  # return their pointer operand
    "llvm.sin.f64", "llvm.fmuladd.f64", "llvm.nvvm.barrier0",
    "_RINvNtCs1_4core3fmt3fooNtCs2_5mycrt3BarE",                       # generic instance: may run user code
    "_RNvCs1_5mycrt3fmt", "_ZN5mycrt3fmt17h0123456789abcdefE",
    "_RNvMs_NtCsgvbsrvnw3yD_9hashbrown3rawNtB4_13RawTableInner22fallible_with_capacity",  # allocates the table
]


@pytest.mark.parametrize("name", INACTIVE)
def test_known_inactive(name):
    assert is_known_inactive(name)
    assert inactive_reason(name)


@pytest.mark.parametrize("name", ACTIVE_OR_UNKNOWN)
def test_not_known_inactive(name):
    assert not is_known_inactive(name)


# -- memory functions -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "kind", "operands"), [
    ("llvm.memcpy.p0.p0.i64", MemoryKind.COPY, {"dst": 0, "src": 1, "size": 2, "volatile": 3}),
    ("llvm.memcpy.p0.p0.i32", MemoryKind.COPY, {"dst": 0, "src": 1, "size": 2}),
    ("llvm.memcpy.inline.p0.p0.i64", MemoryKind.COPY, {"dst": 0, "src": 1, "size": 2}),
    ("llvm.memmove.p0.p0.i64", MemoryKind.MOVE, {"dst": 0, "src": 1, "size": 2}),
    ("llvm.memset.p0.i64", MemoryKind.SET, {"dst": 0, "value": 1, "size": 2, "volatile": 3}),
    ("llvm.memcpy.element.unordered.atomic.p0.p0.i64", MemoryKind.COPY, {"dst": 0, "src": 1, "size": 2,
                                                                         "volatile": None}),
    ("memcpy", MemoryKind.COPY, {"dst": 0, "src": 1, "size": 2, "returns": Returns.DST}),
    ("__memcpy_chk", MemoryKind.COPY, {"dst": 0, "src": 1, "size": 2}),
    ("mempcpy", MemoryKind.COPY, {"returns": Returns.DST_END}),
    ("bcopy", MemoryKind.MOVE, {"src": 0, "dst": 1, "size": 2}),
    ("memset", MemoryKind.SET, {"dst": 0, "value": 1, "size": 2}),
    ("bzero", MemoryKind.SET, {"dst": 0, "value": None, "size": 1}),
    ("malloc", MemoryKind.ALLOC, {"size": 0, "returns": Returns.BLOCK}),
    ("aligned_alloc", MemoryKind.ALLOC, {"align": 0, "size": 1}),
    ("calloc", MemoryKind.CALLOC, {"count": 0, "size": 1}),
    ("realloc", MemoryKind.REALLOC, {"ptr": 0, "size": 1, "returns": Returns.BLOCK}),
    ("free", MemoryKind.FREE, {"ptr": 0}),
    ("_Znwm", MemoryKind.ALLOC, {"size": 0}), ("_Znam", MemoryKind.ALLOC, {"size": 0}),
    ("_ZnwmSt11align_val_t", MemoryKind.ALLOC, {"size": 0, "align": 1}),
    ("_ZdlPv", MemoryKind.FREE, {"ptr": 0}), ("_ZdlPvm", MemoryKind.FREE, {"ptr": 0, "size": 1}),
    ("_ZdaPv", MemoryKind.FREE, {"ptr": 0}),
    ("__rust_alloc", MemoryKind.ALLOC, {"size": 0, "align": 1}),
    ("__rust_alloc_zeroed", MemoryKind.CALLOC, {"size": 0, "count": None}),
    ("__rust_realloc", MemoryKind.REALLOC, {"ptr": 0, "old_size": 1, "align": 2, "size": 3}),
    ("__rust_dealloc", MemoryKind.FREE, {"ptr": 0, "size": 1, "align": 2}),
    ("_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc", MemoryKind.ALLOC, {"size": 0}),   # rustc 1.95's spelling
    ("_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc", MemoryKind.FREE, {"ptr": 0}),
    ("_RNvCsfLfy6EI15iL_7___rustc19___rust_alloc_zeroed", MemoryKind.CALLOC, {"size": 0, "align": 1}),
    ("_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc", MemoryKind.REALLOC, {"ptr": 0, "size": 3}),
    ("valloc", MemoryKind.ALLOC, {"size": 0}), ("pvalloc", MemoryKind.ALLOC, {"size": 0}),
    ("aligned_alloc", MemoryKind.ALLOC, {"align": 0, "size": 1}), ("memalign", MemoryKind.ALLOC, {"align": 0, "size": 1}),
    # the block comes back through operand 0; the result is a status code
    ("posix_memalign", MemoryKind.ALLOC, {"out": 0, "align": 1, "size": 2, "returns": Returns.THROUGH}),
])
def test_memory_table(name, kind, operands):
    f = lookup_memory(name)
    assert f is not None and f.kind is kind
    for field, index in operands.items():
        assert getattr(f, field) == index, field


@pytest.mark.parametrize("name", ["strcpy", "sin", "memcmp", "malloc_usable_size",
                                  "_RNvCsfLfy6EI15iL_7___rustc13___rust_allocx", "my_malloc"])
def test_not_memory_functions(name):
    assert lookup_memory(name) is None


def test_memory_table_is_consistent():
    for name, f in MEMORY.items():
        assert f.name == name and not is_known_inactive(name) and lookup(name) is None
        if f.kind in (MemoryKind.COPY, MemoryKind.MOVE):
            assert None not in (f.dst, f.src, f.size)
        if f.kind is MemoryKind.SET:
            assert f.dst is not None and f.size is not None
        if f.kind in (MemoryKind.ALLOC, MemoryKind.CALLOC, MemoryKind.REALLOC):
            assert f.size is not None
            assert (f.returns, f.out is None) in ((Returns.BLOCK, True), (Returns.THROUGH, False)), name
        if f.kind in (MemoryKind.FREE, MemoryKind.REALLOC):
            assert f.ptr == 0


@pytest.mark.parametrize("name, inactive", [
    ("_ZNSaIcEC1Ev", True),                                                  # std::allocator<char>()
    ("_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv", True),  # std::string::size
    ("_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm", True),
    ("_ZSt11_Hash_bytesPKvmm", True),
    ("_ZNSt6localeC1EPKc", True),
    ("_ZNKSt9basic_iosIcSt11char_traitsIcEEcvbEv", True),
    ("_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4copyEPcmm", False),  # writes a caller buffer
    ("_ZNSt13basic_filebufIcSt11char_traitsIcEE6xsgetnEPcl", False),
    ("_ZNSirsERd", False),                                                   # std::istream >> double
    ("_ZNSi4readEPcl", False),                                               # std::istream::read
])
def test_libstdcxx_character_machinery(name: str, inactive: bool) -> None:
    """libstdc++'s text machinery is inactive; what writes into caller memory from outside is not."""
    assert is_known_inactive(name) is inactive
