"""Thread-local variables through the JIT: lowered to emulated TLS (enzyme.llvm.thread_locals).

The JIT's linker cannot apply TLS relocations: a module defining a
thread_local variable crashed while linking, and one using a library's (Rust
std's, libstdc++'s) crashed when called.  Every test calls from several
Python threads (real threads: ctypes releases the GIL), each of which must
see its own copy.
"""
from __future__ import annotations

import ctypes

import pytest
from concurrency import in_threads

from enzyme import llvm
from enzyme.errors import LinkError
from enzyme.llvm.thread_locals import lower_thread_locals

THREADS = 4
ROUNDS = 200

# A counter with an initializer (read by the intrinsic), a zeroed array reached through a constant
# GEP and passed directly as a call argument, and a phi choosing between two thread-locals.
DEFINED = """
@start = internal thread_local global i64 1000, align 8
@slots = thread_local global [4 x i64] zeroinitializer, align 16
@other = internal thread_local(initialexec) global i64 -1, align 8
@llvm.used = appending global [1 x ptr] [ptr @other], section "llvm.metadata"

declare ptr @llvm.threadlocal.address.p0(ptr)

define i64 @bump(i64 %by) {
  %p = call ptr @llvm.threadlocal.address.p0(ptr @start)
  %v = load i64, ptr %p, align 8
  %w = add i64 %v, %by
  store i64 %w, ptr %p, align 8
  store i64 %w, ptr getelementptr inbounds ([4 x i64], ptr @slots, i64 0, i64 3), align 8
  ret i64 %w
}

define i64 @third_slot() {
  %v = call i64 @load_at(ptr getelementptr inbounds ([4 x i64], ptr @slots, i64 0, i64 3))
  ret i64 %v
}

define i64 @load_at(ptr %p) {
  %v = load i64, ptr %p, align 8
  ret i64 %v
}

define i64 @pick(i1 %first) {
entry:
  br i1 %first, label %a, label %b
a:
  br label %done
b:
  br label %done
done:
  %p = phi ptr [ @start, %a ], [ @other, %b ]
  %v = load i64, ptr %p, align 8
  ret i64 %v
}
"""

# errno is a thread-local of libc: the JIT code must reach the calling thread's copy.
LIBRARY_DEFINED = """
@errno = external thread_local global i32, align 4

declare ptr @llvm.threadlocal.address.p0(ptr)

define ptr @errno_address() {
  %p = call ptr @llvm.threadlocal.address.p0(ptr @errno)
  ret ptr %p
}
"""


def test_lowered_module_has_no_native_thread_locals() -> None:
    text = lower_thread_locals(DEFINED)
    assert "thread_local" not in text and "llvm.threadlocal.address" not in text.split("declare ptr @llvm")[0]
    # libgcc's layout: size, alignment, index (allocated on first use), initializer template.
    control = "internal global { i64, i64, ptr, ptr }"
    assert f"@__emutls_v.start = {control} {{ i64 8, i64 8, ptr null, ptr @__emutls_t.start }}" in text
    assert f"@__emutls_v.slots = {control} {{ i64 32, i64 16, ptr null, ptr null }}" in text
    assert "@__emutls_t.start = internal unnamed_addr constant i64 1000" in text
    assert "@llvm.used = appending global [1 x ptr] [ptr @__emutls_v.other]" in text
    assert text.count("call ptr @__emutls_get_address(") == 5  # phi: one per incoming block


def test_each_thread_has_its_own_copies() -> None:
    jit = llvm.JIT(DEFINED)
    bump = jit.cfunc("bump", ctypes.c_int64, ctypes.c_int64)
    third_slot = jit.cfunc("third_slot", ctypes.c_int64)
    pick = jit.cfunc("pick", ctypes.c_int64, ctypes.c_bool)
    assert bump(5) == 1005 and third_slot() == 1005  # this thread's copies

    def work(k: int) -> tuple[int, ...]:
        initial = (pick(True), pick(False), third_slot())  # fresh copies: the initializers
        for _ in range(ROUNDS):
            value = bump(k + 1)
            assert third_slot() == value  # no other thread's writes show through
        return (*initial, value)

    results = in_threads(work, THREADS)
    assert results == [(1000, -1, 0, 1000 + ROUNDS * (k + 1)) for k in range(THREADS)]
    assert third_slot() == 1005 and pick(True) == 1005 and pick(False) == -1


def test_library_thread_local_is_the_calling_threads() -> None:
    jit = llvm.JIT(LIBRARY_DEFINED)
    errno_address = jit.cfunc("errno_address", ctypes.c_void_p)
    libc_errno = ctypes.CDLL(None).__errno_location
    libc_errno.restype = ctypes.c_void_p
    assert errno_address() == libc_errno()
    addresses = in_threads(lambda k: (errno_address(), errno_address(), libc_errno()), THREADS)
    for jit_first, jit_again, libc in addresses:  # type: ignore[misc]
        assert jit_first == jit_again == libc
    assert len({a[0] for a in addresses}) == THREADS  # type: ignore[index]


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "@t = thread_local global i32 0\n@p = global ptr @t\n",
            r"thread-local variable @t: its address is used in the initializer of @p",
        ),
        (
            "@t = thread_local global i32 0\n@a = thread_local alias i32, ptr @t\n"
            "define i32 @f() {\n  %v = load i32, ptr @a\n  ret i32 %v\n}\n",
            r"thread-local variable @t: alias @a refers to it",
        ),
    ],
    ids=["address-in-initializer", "alias"],
)
def test_unsupported_uses_are_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(LinkError, match=message):
        llvm.JIT(text)


def test_unresolvable_library_thread_local_is_named() -> None:
    text = LIBRARY_DEFINED.replace("@errno", "@no_such_thread_local")
    with pytest.raises(LinkError, match=r"unresolved symbol\(s\) no_such_thread_local"):
        llvm.JIT(text)
