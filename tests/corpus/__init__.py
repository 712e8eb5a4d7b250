"""The round-trip corpus: real compiler inputs in every supported language.

Sources live in one folder per language (``c/``, ``cxx/``, ``fortran/``,
``rust/``, ``cuda/``, ``hip/``, ``numba/``, ``interop/``); ``catalog`` lists
them with the compiler settings each is built under, ``build`` compiles them
(cached), ``generate_large_c`` writes the large generated C file and
``roundtrip`` holds the equality check.
"""
