"""Memory functions as data: what each one does and which operand is which.

The engine mirrors these on shadow memory (copy the shadow along with the
data, zero the shadow of memset memory, allocate/free a shadow block beside
the primal one); this table only says where to find the operands, so the
engine needs no list of names of its own.

>>> f = lookup_memory("llvm.memcpy.p0.p0.i64")
>>> f.kind, f.dst, f.src, f.size
(<MemoryKind.COPY: 'copy'>, 0, 1, 2)
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from .names import intrinsic_base, like_target, proxy_parts, rust_shim_name


class MemoryKind(enum.Enum):
    COPY = "copy"          # dst <- src, non-overlapping
    MOVE = "move"          # dst <- src, may overlap
    SET = "set"            # dst <- a byte value
    ALLOC = "alloc"        # new uninitialised block
    CALLOC = "calloc"      # new zero-filled block
    REALLOC = "realloc"    # resize ptr's block, maybe moving it
    FREE = "free"          # release ptr's block
    INPUT = "input"        # dst <- data read from outside the program (an input stream): no derivative


class Returns(enum.Enum):
    NOTHING = "nothing"    # void, or a status code
    DST = "dst"            # the destination pointer (libc memcpy/memset)
    DST_END = "dst_end"    # dst + size (mempcpy)
    BLOCK = "block"        # the new block (alloc, calloc, realloc)
    THROUGH = "through"    # a status code; the new block is stored through operand ``out`` (posix_memalign)


@dataclass(frozen=True)
class MemoryFunction:
    """Operand indices of one memory function; None where it has no such operand.

    ``size`` is the byte count (copy/move/set/alloc/realloc's new size), or the
    element size for ``calloc`` (bytes = ``count`` · ``size``).  ``value`` is
    memset's fill byte; a SET without ``value`` fills zeros (``bzero``).
    ``ptr`` is the block freed or reallocated; ``out`` the pointer through which an allocator
    returns the new block (``posix_memalign(&p, align, size)``, which returns a status).
    """

    name: str
    kind: MemoryKind
    dst: int | None = None
    src: int | None = None
    size: int | None = None
    value: int | None = None
    count: int | None = None
    ptr: int | None = None
    align: int | None = None
    old_size: int | None = None
    volatile: int | None = None
    out: int | None = None
    returns: Returns = Returns.NOTHING
    #: INPUT: the bytes written at ``dst`` when the signature fixes them (``istream >> double&``: 8) ...
    fixed: int | None = None
    #: ... else how the stream counts them: "gcount" (``istream::read``: ``gcount()`` bytes) or "gcount_nul"
    #: (``istream::get(buf, n[, delim])``: ``gcount()`` characters and a terminating NUL when ``n > 0``).
    counted: str | None = None


MEMORY: dict[str, MemoryFunction] = {}


def _add(name: str, kind: MemoryKind, **operands: object) -> None:
    MEMORY[name] = MemoryFunction(name, kind, **operands)  # type: ignore[arg-type]


K, RET = MemoryKind, Returns

# -- LLVM intrinsics (keys without the type suffixes: llvm.memcpy.p0.p0.i64 -> llvm.memcpy) -----------
for _n in ("llvm.memcpy", "llvm.memcpy.inline"):
    _add(_n, K.COPY, dst=0, src=1, size=2, volatile=3)
_add("llvm.memmove", K.MOVE, dst=0, src=1, size=2, volatile=3)
for _n in ("llvm.memset", "llvm.memset.inline"):
    _add(_n, K.SET, dst=0, value=1, size=2, volatile=3)
# The atomic element-wise forms: operand 3 is the element size, not a volatile flag.
_add("llvm.memcpy.element.unordered.atomic", K.COPY, dst=0, src=1, size=2)
_add("llvm.memmove.element.unordered.atomic", K.MOVE, dst=0, src=1, size=2)
_add("llvm.memset.element.unordered.atomic", K.SET, dst=0, value=1, size=2)

# -- C library (the _chk forms are _FORTIFY_SOURCE's; their last operand is the buffer size) ----------
for _n in ("memcpy", "__memcpy_chk"):
    _add(_n, K.COPY, dst=0, src=1, size=2, returns=RET.DST)
for _n in ("mempcpy", "__mempcpy_chk"):
    _add(_n, K.COPY, dst=0, src=1, size=2, returns=RET.DST_END)
for _n in ("memmove", "__memmove_chk"):
    _add(_n, K.MOVE, dst=0, src=1, size=2, returns=RET.DST)
_add("bcopy", K.MOVE, src=0, dst=1, size=2)  # note the order: source first
for _n in ("memset", "__memset_chk"):
    _add(_n, K.SET, dst=0, value=1, size=2, returns=RET.DST)
for _n in ("bzero", "explicit_bzero"):
    _add(_n, K.SET, dst=0, size=1)
for _n in ("malloc", "valloc", "pvalloc"):
    _add(_n, K.ALLOC, size=0, returns=RET.BLOCK)
_add("aligned_alloc", K.ALLOC, align=0, size=1, returns=RET.BLOCK)
_add("memalign", K.ALLOC, align=0, size=1, returns=RET.BLOCK)
_add("posix_memalign", K.ALLOC, out=0, align=1, size=2, returns=RET.THROUGH)
_add("calloc", K.CALLOC, count=0, size=1, returns=RET.BLOCK)
_add("realloc", K.REALLOC, ptr=0, size=1, returns=RET.BLOCK)
_add("free", K.FREE, ptr=0)
# The tape runtime keeping its block for the next call (enzyme/ad/tape.py): a free as far as derivatives go.
_add("__pyenzyme_tape_park", K.FREE, ptr=0, size=1)

# -- C++ operator new / delete (64- and 32-bit size_t manglings) ---------------------------------
for _t in ("m", "j"):
    for _n in (f"_Znw{_t}", f"_Zna{_t}", f"_Znw{_t}RKSt9nothrow_t", f"_Zna{_t}RKSt9nothrow_t"):
        _add(_n, K.ALLOC, size=0, returns=RET.BLOCK)
    for _n in (f"_Znw{_t}St11align_val_t", f"_Zna{_t}St11align_val_t",
               f"_Znw{_t}St11align_val_tRKSt9nothrow_t", f"_Zna{_t}St11align_val_tRKSt9nothrow_t"):
        _add(_n, K.ALLOC, size=0, align=1, returns=RET.BLOCK)
    for _n in (f"_ZdlPv{_t}", f"_ZdaPv{_t}"):  # sized delete
        _add(_n, K.FREE, ptr=0, size=1)
    for _n in (f"_ZdlPv{_t}St11align_val_t", f"_ZdaPv{_t}St11align_val_t"):
        _add(_n, K.FREE, ptr=0, size=1, align=2)
for _n in ("_ZdlPv", "_ZdaPv", "_ZdlPvRKSt9nothrow_t", "_ZdaPvRKSt9nothrow_t"):
    _add(_n, K.FREE, ptr=0)
for _n in ("_ZdlPvSt11align_val_t", "_ZdaPvSt11align_val_t"):
    _add(_n, K.FREE, ptr=0, align=1)

# -- Rust's global allocator shims: rustc 1.95 calls them by v0-mangled names (_RNvCs<hash>_7___rustc12___rust_alloc,
# see lookup_memory); __rust_alloc_zeroed has no element count (bytes = size).
_add("__rust_alloc", K.ALLOC, size=0, align=1, returns=RET.BLOCK)
_add("__rust_alloc_zeroed", K.CALLOC, size=0, align=1, returns=RET.BLOCK)
_add("__rust_realloc", K.REALLOC, ptr=0, old_size=1, align=2, size=3, returns=RET.BLOCK)
_add("__rust_dealloc", K.FREE, ptr=0, size=1, align=2)


# -- std::istream (basic_istream<char>, mangled Si) reading into the caller's memory ----------------------
# What they store comes from outside the program: it carries no derivative, and it overwrites whatever
# derivative the destination held.  operator>>(T&) and its _M_extract<T> helper write a whole T (zero or
# the limit when extraction fails); read/readsome and get(buf, n) write what gcount() counts afterwards.
_EXTRACTED_SIZES = {"b": 1, "c": 1, "a": 1, "h": 1, "s": 2, "t": 2, "i": 4, "j": 4, "l": 8, "m": 8, "x": 8, "y": 8,
                    "f": 4, "d": 8, "e": 16, "g": 16}
_FIXED_READS = {"_ZNSi3getERc": 1}  # get(char&)
_STREAM_READS = {"_ZNSi4readEPcl": "gcount", "_ZNSi8readsomeEPcl": "gcount",
                 "_ZNSi3getEPcl": "gcount_nul", "_ZNSi3getEPclc": "gcount_nul"}


def _stream_input(name: str) -> MemoryFunction | None:
    """``std::istream`` members that store input into the memory their second operand points to."""
    if name in _FIXED_READS:
        return MemoryFunction(name, MemoryKind.INPUT, dst=1, fixed=_FIXED_READS[name])
    counted = _STREAM_READS.get(name)
    if counted is not None:
        return MemoryFunction(name, MemoryKind.INPUT, dst=1, counted=counted)
    for prefix, suffix in (("_ZNSi10_M_extractI", "EERSiRT_"), ("_ZNSirsER", "")):
        code = name[len(prefix):len(name) - len(suffix)] if name.startswith(prefix) and name.endswith(suffix) else ""
        if code in _EXTRACTED_SIZES:
            return MemoryFunction(name, MemoryKind.INPUT, dst=1, fixed=_EXTRACTED_SIZES[code])
    return None


def lookup_memory(name: str) -> MemoryFunction | None:
    """The memory function ``name`` (``llvm.memset.p0.i64``, ``_Znwm``, ``__rust_alloc``...), or None.

    rustc's v0-mangled shims (``_RNvCs<hash>_7___rustc12___rust_alloc``) count as ``__rust_alloc``.
    """
    proxy = proxy_parts(name)
    if proxy is not None:  # an __enzyme_allocation_like allocator or deallocator
        kind, index, _ = proxy
        if kind == "alloc":
            return MemoryFunction(name, MemoryKind.ALLOC, size=index, returns=Returns.BLOCK)
        return MemoryFunction(name, MemoryKind.FREE, ptr=index)
    name = like_target(name)
    stream = _stream_input(name)
    if stream is not None:
        return stream
    base = intrinsic_base(name)
    return MEMORY.get("llvm." + base if base is not None else rust_shim_name(name))
