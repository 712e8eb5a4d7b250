"""Functions whose calls never carry derivatives and need no rule.

A function is *known inactive* when nothing differentiable flows through it:
it neither returns a value that depends on its floating-point inputs nor
writes floating-point data that later code reads.  The engine leaves such
calls alone in every mode (they run once, in the primal sweep).

Not inactive, although they look harmless (see :data:`NOT_INACTIVE`): functions
that overwrite caller memory with data from outside (``fread``, ``scanf``):
the values they store carry no derivative, but whatever derivative the old
contents had must be cleared, so the engine has to see them.  Memory functions
(``memcpy``, ``malloc``, ...) are in :mod:`enzyme.rules.memory`.
"""
from __future__ import annotations

import re

from .names import intrinsic_base, like_target, rust_shim_name

_OUTPUT = "writes text or bytes to a stream or a char buffer; reads its arguments only"
_FILES = "opens, closes, positions or queries a stream; no floating-point data"
_CHAR_INPUT = "reads characters (ints or a char buffer), never floating-point memory"
_TIME = "reads a clock; the result does not depend on any differentiable input"
_RANDOM = "random numbers and their seeds: values no input differentiates"
_STRINGS = "string and byte-comparison functions: chars and integers only"
_PARSE = "parses a string: the number returned is a constant as far as derivatives go"
_NON_FLOAT_COPY = ("copies integer, logical or character array elements (enzyme/runtime_bodies/fortran.c calls "
                   "it for those type codes only)")
_TYPE_INFO = "returns flang's constant description of a derived type (enzyme/runtime_bodies/fortran.c)"
_TERMINATE = "terminates the program or reports a failed check; returns nothing differentiable"
_EXCEPTIONS = "C++ exception and static-initialisation runtime (__cxa_*, unwinding)"
_ENV = "environment, errno and locale queries; integers and chars only"
_PARALLEL_QUERY = "thread/process ids and counts, wall-clock timers of OpenMP and MPI"
_MPI_SETUP = ("MPI set-up, synchronisation and queries (communicators, groups, topologies, counts, "
              "processor names): handles, ranks and counts only, no floating-point data")
_SIZE_QUERY = "asks the allocator about a block; returns a size"
_CONSTANT = "returns a constant (nan(\"\") is NaN whatever the string)"
_FORTRAN_LOGICAL_RESULT = ("Fortran ANY and ALL (with or without DIM=): logical results of logical masks; no "
                           "floating-point data")
_FORTRAN_DESCRIPTOR_QUERY = ("Fortran descriptor queries (IS_CONTIGUOUS, SIZE, LBOUND/UBOUND, SHAPE, RANK): read a "
                             "descriptor's bounds and strides, never the array's values; integer or logical results")
_GROWTH_POLICY = "a container's growth policy: bucket counts from element counts, integers only"

_NAMES: dict[str, tuple[str, ...]] = {
    _OUTPUT: (
        "printf", "fprintf", "sprintf", "snprintf", "dprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf",
        "vdprintf", "asprintf", "vasprintf", "__printf_chk", "__fprintf_chk", "__sprintf_chk", "__snprintf_chk",
        "__vprintf_chk", "__vfprintf_chk", "__vsprintf_chk", "__vsnprintf_chk", "__dprintf_chk",
        "puts", "fputs", "fputs_unlocked", "putchar", "putchar_unlocked", "fputc", "fputc_unlocked", "putc",
        "putc_unlocked", "fwrite", "fwrite_unlocked", "fflush", "fflush_unlocked", "perror", "write", "putwchar",
        "fputwc", "fputws", "wprintf", "fwprintf", "swprintf"),
    _FILES: (
        "fopen", "fopen64", "freopen", "fdopen", "fclose", "fileno", "fseek", "fseeko", "fseeko64", "ftell",
        "ftello", "ftello64", "rewind", "feof", "ferror", "clearerr", "setvbuf", "setbuf", "remove", "rename",
        "open", "open64", "close", "tmpfile", "isatty"),
    _CHAR_INPUT: ("fgets", "fgetc", "getc", "getchar", "getc_unlocked", "getchar_unlocked", "ungetc"),
    _TIME: (
        "clock", "time", "gettimeofday", "clock_gettime", "clock_getres", "times", "getrusage", "difftime",
        "localtime", "localtime_r", "gmtime", "gmtime_r", "mktime", "strftime", "ctime", "asctime",
        "sleep", "usleep", "nanosleep"),
    _RANDOM: (
        "rand", "rand_r", "srand", "random", "srandom", "random_r", "srandom_r", "drand48", "erand48",
        "lrand48", "nrand48", "mrand48", "jrand48", "srand48", "seed48", "lcong48", "arc4random",
        "arc4random_uniform"),
    _STRINGS: (
        "strlen", "strnlen", "strcmp", "strncmp", "strcasecmp", "strncasecmp", "strcoll", "strchr", "strrchr",
        "strstr", "strspn", "strcspn", "strpbrk", "strtok", "strtok_r", "strcpy", "strncpy", "stpcpy",
        "stpncpy", "strcat", "strncat", "strdup", "strndup", "__strdup", "strerror", "strerror_r",
        "__strcpy_chk", "__strcat_chk", "__strncpy_chk", "__stpcpy_chk", "memcmp", "bcmp", "memchr", "memrchr",
        "rawmemchr", "tolower", "toupper", "isalpha", "isdigit", "isalnum", "isspace", "isupper", "islower",
        "isxdigit", "ispunct", "isprint", "iscntrl", "isgraph", "__ctype_b_loc", "__ctype_tolower_loc",
        "__ctype_toupper_loc"),
    _PARSE: (
        "atoi", "atol", "atoll", "atof", "strtol", "strtoll", "strtoul", "strtoull", "strtod", "strtof",
        "strtold", "__isoc23_strtol", "__isoc23_strtoll", "__isoc23_strtoul", "__isoc23_strtoull"),
    _TERMINATE: (
        "abort", "exit", "_exit", "_Exit", "quick_exit", "atexit", "at_quick_exit", "__assert_fail",
        "__assert_perror_fail", "__assert_rtn", "__assert", "__stack_chk_fail", "__chk_fail",
        "__ubsan_handle_builtin_unreachable", "_ZSt9terminatev",
        "__pyenzyme_fortran_unsupported"),  # enzyme/runtime_bodies/fortran.c: a case its bodies refuse
    _EXCEPTIONS: ("_Unwind_Resume", "__gxx_personality_v0", "__clang_call_terminate"),
    _FORTRAN_LOGICAL_RESULT: ("_FortranAAny", "_FortranAAll", "_FortranAAnyDim", "_FortranAAllDim"),
    _FORTRAN_DESCRIPTOR_QUERY: ("_FortranAIsContiguous", "_FortranAIsContiguousUpTo", "_FortranASize",
                                "_FortranASizeDim", "_FortranALbound", "_FortranAUbound", "_FortranAShape",
                                "_FortranALboundDim", "_FortranAUboundDim"),
    _NON_FLOAT_COPY: ("__pyenzyme_fortran_copy_inactive",),
    _TYPE_INFO: ("__pyenzyme_fortran_derived_type",),
    _ENV: ("getenv", "secure_getenv", "setlocale", "__errno_location", "signal", "raise"),
    _PARALLEL_QUERY: (
        "omp_get_wtime", "omp_get_wtick", "omp_get_thread_num", "omp_get_num_threads", "omp_get_max_threads",
        "omp_get_num_procs", "omp_in_parallel", "MPI_Wtime", "MPI_Wtick", "MPI_Comm_rank", "MPI_Comm_size",
        "getpid", "pthread_self"),
    _MPI_SETUP: (
        "MPI_Init", "MPI_Init_thread", "MPI_Initialized", "MPI_Finalize", "MPI_Finalized", "MPI_Abort",
        "MPI_Barrier", "MPI_Get_processor_name", "MPI_Get_version", "MPI_Query_thread", "MPI_Comm_dup",
        "MPI_Comm_split", "MPI_Comm_free", "MPI_Comm_group", "MPI_Group_free", "MPI_Group_rank", "MPI_Group_size",
        "MPI_Comm_compare", "MPI_Get_count", "MPI_Type_size", "MPI_Dims_create", "MPI_Cart_create",
        "MPI_Cart_coords", "MPI_Cart_rank", "MPI_Cart_shift", "MPI_Cart_get", "MPI_Comm_set_errhandler",
        "MPI_Error_string"),
    _SIZE_QUERY: ("malloc_usable_size", "malloc_size"),
    _CONSTANT: ("nan", "nanf", "nanl"),
}

_CXX_STREAM = ("C++ output streams: std::ostream members and operator<< (print only; input streams "
               "write into variables and are not here)")
_CXX_TEXT = ("libstdc++'s character machinery: std::allocator<char/wchar_t>, std::basic_string<char/wchar_t> "
             "members, string hashing, locales, ios_base/basic_ios state, file buffers and output-stream objects; "
             "chars, sizes and flags only (input streams, which store into variables, are not here)")
_FORTRAN_IO = "Fortran runtime output, statement begin/end and STOP; _FortranAioInput* store into variables"
_FORTRAN_INTEGER_RESULT = ("Fortran COUNT, MAXLOC, MINLOC and FINDLOC: counts and positions (integers, in integer "
                           "result arrays); no derivative flows through a position")
_FORTRAN_INTEGER_REDUCTION = ("Fortran SUM, PRODUCT, MAXVAL, MINVAL, DOT_PRODUCT, IALL, IANY and IPARITY of integer "
                              "arrays (the Integer entry points, with or without DIM=): integers in, integers out")
_FORTRAN_CHARACTER = ("Fortran character intrinsics and operations (TRIM, ADJUSTL/R, LEN_TRIM, INDEX, SCAN, VERIFY, "
                      "comparison, concatenation, padding, REPEAT): characters and integers only")
_RUST_FMT = "Rust formatting, printing and panics: core::fmt, core::panicking, std's print/panic/exit"

# Itanium-mangled names (C++ and Rust's legacy mangling) by prefix.
_PREFIXES: tuple[tuple[str, str], ...] = (
    (_EXCEPTIONS, "__cxa_"),
    (_CXX_STREAM, "_ZNSo"),              # std::basic_ostream<char>::... (operator<<(double) is _ZNSolsEd)
    (_CXX_STREAM, "_ZStlsI"),            # std::operator<< <...>(std::ostream&, ...)
    (_CXX_STREAM, "_ZSt4endlI"),
    (_CXX_STREAM, "_ZSt5flushI"),
    (_CXX_STREAM, "_ZSt16__ostream_insertI"),
    (_CXX_STREAM, "_ZNKSt5ctypeIcE"),    # widen() calls that std::endl inlines
    (_CXX_STREAM, "_ZNSt8ios_base4Init"),
    (_CXX_STREAM, "_ZNSt13basic_ostreamIwSt11char_traitsIwEE"),  # std::wostream members (std::wcout)
    (_CXX_STREAM, "_ZNKSt5ctypeIwE"),
    (_CXX_TEXT, "_ZNSaIcE"),             # std::allocator<char>: constructors, destructor
    (_CXX_TEXT, "_ZNSaIwE"),
    (_CXX_TEXT, "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"),   # std::string members
    (_CXX_TEXT, "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE"),
    (_CXX_TEXT, "_ZNSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE"),   # std::wstring members
    (_CXX_TEXT, "_ZNKSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE"),
    (_CXX_TEXT, "_ZSt11_Hash_bytes"),    # std::hash<std::string>
    (_GROWTH_POLICY, "_ZNKSt8__detail20_Prime_rehash_policy"),  # std::unordered_map/set rehashing
    (_CXX_TEXT, "_ZNSt6locale"),         # std::locale constructors, global(), destructor
    (_CXX_TEXT, "_ZNKSt6locale"),
    (_CXX_TEXT, "_ZNSt8ios_base"),       # stream flags, sync_with_stdio
    (_CXX_TEXT, "_ZNKSt8ios_base"),
    (_CXX_TEXT, "_ZNSt9basic_iosIcSt11char_traitsIcEE"),   # init, clear, imbue
    (_CXX_TEXT, "_ZNSt9basic_iosIwSt11char_traitsIwEE"),
    (_CXX_TEXT, "_ZNKSt9basic_iosIcSt11char_traitsIcEE"),  # operator bool, good(), fail(), rdbuf()
    (_CXX_TEXT, "_ZNKSt9basic_iosIwSt11char_traitsIwEE"),
    (_CXX_TEXT, "_ZNSt13basic_filebufIcSt11char_traitsIcEE"),  # open, close; reading goes through istream
    (_CXX_TEXT, "_ZNSt14basic_ofstreamIcSt11char_traitsIcEE"),
    (_CXX_TEXT, "_ZNSt14basic_ifstreamIcSt11char_traitsIcEE"),  # construct, open, close (not read)
    (_CXX_TEXT, "_ZNKSt14basic_ifstreamIcSt11char_traitsIcEE"),  # rdbuf(), is_open()
    (_CXX_TEXT, "_ZNKSt14basic_ofstreamIcSt11char_traitsIcEE"),
    (_CXX_TEXT, "_ZNSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEE"),
    (_CXX_TEXT, "_ZNKSt7__cxx1119basic_ostringstreamIcSt11char_traitsIcESaIcEE"),
    (_CXX_TEXT, "_ZNSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEE"),  # construct, destroy, str()
    (_CXX_TEXT, "_ZNKSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEE"),
    (_CXX_TEXT, "_ZNSt7__cxx1119basic_istringstreamIcSt11char_traitsIcESaIcEE"),
    (_CXX_TEXT, "_ZNKSt7__cxx1119basic_istringstreamIcSt11char_traitsIcESaIcEE"),
    # std::istream members that move the stream's own position or state (what reads into the caller's
    # memory, operator>>, read, get(buf, n), get(char&), is rules.memory's INPUT kind instead)
    (_CXX_TEXT, "_ZNSi6ignoreE"), (_CXX_TEXT, "_ZNSi3getEv"), (_CXX_TEXT, "_ZNSi4peekEv"),
    (_CXX_TEXT, "_ZNSi5ungetEv"), (_CXX_TEXT, "_ZNSi7putbackEc"), (_CXX_TEXT, "_ZNSi5tellgEv"),
    (_CXX_TEXT, "_ZNSi5seekgE"), (_CXX_TEXT, "_ZNSi6sentryC"), (_CXX_TEXT, "_ZNKSi6gcountEv"),
    (_CXX_TEXT, "_ZNSi4syncEv"), (_CXX_TEXT, "_ZNSiD"), (_CXX_TEXT, "_ZNSdD"),
    (_CXX_TEXT, "_ZNSt7__cxx1115basic_stringbufIcSt11char_traitsIcESaIcEE"),
    (_CXX_TEXT, "_ZNKSt7__cxx1115basic_stringbufIcSt11char_traitsIcESaIcEE"),
    (_FORTRAN_IO, "_FortranAio"),
    (_TERMINATE, "_FortranAStopStatement"),
    (_FORTRAN_INTEGER_RESULT, "_FortranACount"),
    (_FORTRAN_INTEGER_RESULT, "_FortranAMaxloc"),
    (_FORTRAN_INTEGER_RESULT, "_FortranAMinloc"),
    (_FORTRAN_INTEGER_RESULT, "_FortranAFindloc"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranASumInteger"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranAProductInteger"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranAMaxvalInteger"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranAMinvalInteger"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranADotProductInteger"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranAIAll"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranAIAny"),
    (_FORTRAN_INTEGER_REDUCTION, "_FortranAIParity"),
    (_FORTRAN_CHARACTER, "_FortranATrim"),
    (_FORTRAN_CHARACTER, "_FortranAAdjustl"),
    (_FORTRAN_CHARACTER, "_FortranAAdjustr"),
    (_FORTRAN_CHARACTER, "_FortranALenTrim"),
    (_FORTRAN_CHARACTER, "_FortranAIndex"),
    (_FORTRAN_CHARACTER, "_FortranAScan"),
    (_FORTRAN_CHARACTER, "_FortranAVerify"),
    (_FORTRAN_CHARACTER, "_FortranACharacterCompare"),
    (_FORTRAN_CHARACTER, "_FortranACharacterConcatenate"),
    (_FORTRAN_CHARACTER, "_FortranACharacterAppend"),
    (_FORTRAN_CHARACTER, "_FortranACharacterPad"),
    (_FORTRAN_CHARACTER, "_FortranARepeat"),
    (_TERMINATE, "_FortranAFailImageStatement"),
    (_TERMINATE, "_FortranAProgramEndStatement"),
    (_TERMINATE, "_FortranAExit"),
    (_TERMINATE, "_FortranAAbort"),
    (_TERMINATE, "_FortranAReportFatalUserError"),
    (_TIME, "_FortranACpuTime"),
    (_TIME, "_FortranASystemClock"),
    (_TIME, "_FortranADateAndTime"),
    (_RUST_FMT, "rust_begin_unwind"),
    (_RUST_FMT, "rust_panic"),
    (_RUST_FMT, "__rust_start_panic"),
    (_EXCEPTIONS, "rust_eh_personality"),
    (_RUST_FMT, "__rust_no_alloc_shim_is_unstable"),  # an empty marker the allocator shims require
)
# libstdc++'s std::__throw_*(...) helpers: _ZSt20__throw_length_errorPKc, ...
_CXX_THROW = re.compile(r"_ZSt\d+__throw_")

# Rust module paths (and functions) that only format, print, panic or exit.
_RUST_PATHS: tuple[tuple[str, ...], ...] = (
    ("core", "fmt"), ("core", "panicking"), ("core", "option", "unwrap_failed"),
    ("core", "option", "expect_failed"), ("core", "result", "unwrap_failed"),
    ("core", "slice", "index"),  # slice_*_index_*_fail panics
    ("std", "io", "stdio", "_print"), ("std", "io", "stdio", "_eprint"), ("std", "panicking"),
    ("std", "process", "exit"), ("std", "process", "abort"), ("alloc", "alloc", "handle_alloc_error"),
    ("alloc", "raw_vec", "capacity_overflow"), ("alloc", "raw_vec", "handle_error"),
    ("core", "cell", "panic_already_borrowed"), ("core", "cell", "panic_already_mutably_borrowed"),  # RefCell
)


def _rust_legacy(path: tuple[str, ...]) -> str:
    """Legacy (Itanium-like) mangling prefix: ``_ZN4core9panicking``."""
    return "_ZN" + "".join(f"{len(p)}{p}" for p in path)


def _rust_v0(path: tuple[str, ...]) -> str:
    """v0 mangling (rustc's default) as a regex for items whose path starts at that crate.

    ``_RNvNtCs<hash>_4core9panicking9panic_fmt``: nesting tags first, then the crate root, then the
    identifiers (a ``_`` separates a length from an identifier starting with ``_`` or a digit).
    Items of impls defined there (``_RNvXs7_NtNtCs.._4core3fmt5floatdNtB7_7Display3fmt``, f64's
    Display) match too; generic instances (``_RI...``) do not, since a user's generic function
    instantiated with a core::fmt type would contain the same text.
    """
    idents = "".join(f"{len(p)}{'_' if p[0] in '_0123456789' else ''}{p}" for p in path)
    return r"_RN[vt](?:N[a-zA-Z]|[XM](?:s[0-9A-Za-z]*_)?)*C(?:s[0-9A-Za-z]*_)?" + re.escape(idents)


_PREFIXES += tuple((_RUST_FMT, _rust_legacy(p)) for p in _RUST_PATHS)
_RUST_V0 = re.compile("|".join(f"(?:{_rust_v0(p)})" for p in _RUST_PATHS))
# std's random seeds (HashMap's RandomState keys come from std::sys::random::<os>::hashmap_random_keys).
_RUST_RANDOM_PATHS: tuple[tuple[str, ...], ...] = (("std", "sys", "random"),)
_PREFIXES += tuple((_RANDOM, _rust_legacy(p)) for p in _RUST_RANDOM_PATHS)
_RUST_RANDOM_V0 = re.compile("|".join(f"(?:{_rust_v0(p)})" for p in _RUST_RANDOM_PATHS))
# HashMap's allocation-failure paths (std's hashbrown: Fallibility::capacity_overflow / alloc_err panic or return
# an error of sizes); hashbrown's other entry points allocate tables and are not here.
_HASHBROWN_FAILURE = re.compile(r"_RNvMNtC(?:s[0-9A-Za-z]*_)?9hashbrown3rawNtB[0-9A-Za-z]*_11Fallibility")

_DEBUG = "debug info, optimisation hints, lifetime and aliasing markers: no runtime value"
_CONTROL = "traps and stack save/restore: control, not data"
_INT_ONLY = "integer arithmetic and bit counting (no floating-point operand or result)"
_GPU_IDS = "GPU thread, block and grid indices (integers)"

_INTRINSICS: dict[str, tuple[str, ...]] = {
    _DEBUG: (
        "lifetime.start", "lifetime.end", "assume", "experimental.noalias.scope.decl", "invariant.start",
        "invariant.end", "prefetch", "expect", "expect.with.probability", "is.constant", "objectsize",
        "sideeffect", "donothing", "pseudoprobe", "var.annotation", "annotation", "codeview.annotation",
        "allow.runtime.check", "allow.ubsan.check", "is.fpclass", "get.rounding", "set.rounding",
        "readcyclecounter", "readsteadycounter"),
    _CONTROL: ("trap", "debugtrap", "ubsantrap", "stacksave", "stackrestore"),
    _INT_ONLY: (
        "ctpop", "ctlz", "cttz", "abs", "smax", "smin", "umax", "umin", "sadd.with.overflow",
        "uadd.with.overflow", "ssub.with.overflow", "usub.with.overflow", "smul.with.overflow",
        "umul.with.overflow", "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat", "scmp", "ucmp", "fshl", "fshr", "fptosi.sat", "fptoui.sat"),
}
_INTRINSIC_PREFIXES: tuple[tuple[str, str], ...] = (
    (_DEBUG, "dbg."),
    (_DEBUG, "instrprof."),
    (_GPU_IDS, "nvvm.read.ptx.sreg."),
    (_GPU_IDS, "amdgcn.workitem.id."),
    (_GPU_IDS, "amdgcn.workgroup.id."),
)

# Look inactive, are not: they store data without a derivative over memory that may hold active
# floats, so the engine must clear (forward: zero; reverse: drop) the shadow of what they write.
NOT_INACTIVE: dict[str, str] = {
    **{n: "reads input into caller memory (possibly floats): the shadow of that memory must be cleared"
       for n in ("fread", "fread_unlocked", "read", "pread", "scanf", "fscanf", "sscanf", "vscanf", "vfscanf",
                 "vsscanf", "__isoc99_scanf", "__isoc99_fscanf", "__isoc99_sscanf", "__isoc23_scanf",
                 "__isoc23_fscanf", "__isoc23_sscanf")},
    "getrandom": "fills caller memory with random bytes: the shadow of that memory must be cleared",
    "llvm.launder.invariant.group": "returns its pointer argument: the shadow must follow it",
    "llvm.strip.invariant.group": "returns its pointer argument: the shadow must follow it",
    "llvm.threadlocal.address": "returns a pointer to a thread-local variable, which may hold active data",
    "llvm.ptr.annotation": "returns its pointer argument: the shadow must follow it",
}

# The same, by name prefix (excluded from the inactive prefixes above that would cover them).
NOT_INACTIVE_PREFIXES: dict[str, str] = {
    "_FortranAioInput": "Fortran READ items: store into variables, whose shadows must be cleared",
    "_ZNSirs": "std::istream::operator>>: stores into a variable, whose shadow must be cleared",
    "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4copy": "std::string::copy writes into a caller buffer",
    "_ZNKSt7__cxx1112basic_stringIwSt11char_traitsIwESaIwEE4copy": "std::wstring::copy writes into a caller buffer",
    "_ZNSt13basic_filebufIcSt11char_traitsIcEE6xsgetn": "reads a file into a caller buffer",
    "_ZNSt13basic_filebufIcSt11char_traitsIcEE9underflow": "reads a file into the stream's buffer",
}

_EXACT = {name: reason for reason, names in _NAMES.items() for name in names}
_EXACT_INTRINSICS = {name: reason for reason, names in _INTRINSICS.items() for name in names}


def inactive_reason(name: str) -> str | None:
    """Why calls to ``name`` carry no derivative, or None if it is not known to be inactive."""
    name = like_target(name)
    if name in NOT_INACTIVE or name.startswith(tuple(NOT_INACTIVE_PREFIXES)):
        return None
    base = intrinsic_base(name)
    if base is not None:
        if "llvm." + base in NOT_INACTIVE:
            return None
        reason = _EXACT_INTRINSICS.get(base)
        if reason is None:
            reason = next((r for r, p in _INTRINSIC_PREFIXES if base.startswith(p)), None)
        return reason
    name = rust_shim_name(name)
    reason = _EXACT.get(name)
    if reason is None:
        reason = next((r for r, p in _PREFIXES if name.startswith(p)), None)
    if reason is None and _RUST_RANDOM_V0.match(name):
        reason = _RANDOM
    if reason is None and _HASHBROWN_FAILURE.match(name):
        reason = _RUST_FMT
    if reason is None and (_CXX_THROW.match(name) or _RUST_V0.match(name)):
        reason = _EXCEPTIONS if name.startswith("_ZSt") else _RUST_FMT
    return reason


def is_known_inactive(name: str) -> bool:
    """True for functions whose calls never carry derivatives (I/O, timers, debug intrinsics, ...).

    >>> is_known_inactive("printf"), is_known_inactive("llvm.lifetime.start.p0"), is_known_inactive("memcpy")
    (True, True, False)
    """
    return inactive_reason(name) is not None
