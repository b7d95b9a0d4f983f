"""Where a sample's time goes: the classes of the profile and the rules that put a sampled
stack into one of them, as data. A stack is classified by its innermost frame (where the CPU
was), matched against :data:`RULES` in order, the first match winning.

py-spy (``--native``) replaces the interpreter's eval loop with the Python frames it runs and
leaves out the interpreter's own C functions (integer arithmetic, allocation, the eval loop):
a sample whose innermost frame is Python code is time the interpreter spent running that code.
perf shows the opposite: the interpreter's C functions (``_PyEval_EvalFrameDefault``,
``long_xor``) and no Python frame. Frames of compiled extensions (OpenSSL inside
``cryptography``, pycryptodome's ``_raw_*`` modules, the C library) show as they are under both,
and the kernel's under perf.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

INTERPRETED = "interpreted"  # run by the CPython interpreter
COMPILED = "compiled"  # machine code: the native library, the binding, the C library


@dataclass(frozen=True)
class Share:
    """One class of where the time goes."""

    name: str  # as tables print it
    group: str  # INTERPRETED or COMPILED
    meaning: str  # one sentence for the notes


CIPHER_PYTHON = Share(
    "cipher's Python code", INTERPRETED, "a pure-Python cipher's own code (pyaes), interpreted"
)
LIBRARY_PYTHON = Share(
    "library's Python layer",
    INTERPRETED,
    "the Python part of a compiled library (cryptography's and pycryptodome's .py files)",
)
HARNESS = Share("harness", INTERPRETED, "CipherBench's own code around the call")
OTHER_PYTHON = Share("other Python", INTERPRETED, "Python's standard library and other .py code")
INTERPRETER = Share(
    "interpreter",
    INTERPRETED,
    "the interpreter's own C code: its eval loop, integer arithmetic and allocation under perf, "
    "the GC only under py-spy",
)
NATIVE_CIPHER = Share(
    "native cipher code",
    COMPILED,
    "the compiled cipher: OpenSSL's functions, pycryptodome's _raw_* modules",
)
BINDING = Share(
    "binding",
    COMPILED,
    "the layer between Python and the compiled cipher (pyo3, cffi, ctypes, libffi)",
)
C_LIBRARY = Share("C library", COMPILED, "copies (memcpy) and allocation in the C library")
KERNEL = Share(
    "kernel code", COMPILED, "the kernel's own functions (page faults, system calls), under perf"
)
OTHER_NATIVE = Share("other native", COMPILED, "compiled code that no rule names")

SHARES: tuple[Share, ...] = (
    CIPHER_PYTHON,
    LIBRARY_PYTHON,
    HARNESS,
    OTHER_PYTHON,
    INTERPRETER,
    NATIVE_CIPHER,
    BINDING,
    C_LIBRARY,
    KERNEL,
    OTHER_NATIVE,
)
BY_NAME = {s.name: s for s in SHARES}
GROUPS = (INTERPRETED, COMPILED)
SHARE_NAMES = (*GROUPS, *BY_NAME)  # what a claim of a study may name


def share_names(name: str) -> tuple[str, ...]:
    """The classes a group or a class named ``name`` covers (``"interpreted"``: five)."""
    if name in GROUPS:
        return tuple(s.name for s in SHARES if s.group == name)
    return (name,) if name in BY_NAME else ()


# Rust's names, mangled (py-spy) or not (perf): cryptography's binding code; OpenSSL's are C's
PACKAGE = __name__.partition(".")[0]  # app in a checkout, cipherbench installed
_RUST_OR_PYO3 = r"^(_R|_ZN)|pyo3|::"


@dataclass(frozen=True)
class Rule:
    share: Share
    file: str  # regular expression searched in the frame's file ("" matches any)
    function: str = ""  # ... and in its function name
    python: bool | None = None  # True: a Python frame only; False: a native frame only


RULES: tuple[Rule, ...] = (
    Rule(CIPHER_PYTHON, r"(^|/)pyaes/", python=True),
    Rule(LIBRARY_PYTHON, r"(^|/)(cryptography|Crypto)/", python=True),
    Rule(HARNESS, rf"(^|/){PACKAGE}/", python=True),
    Rule(OTHER_PYTHON, "", python=True),
    Rule(INTERPRETER, r"libpython|(^|/)python3?[.\d]*$|(^|/)python3\d*\.dll$", python=False),
    # CPython's own C sources, where debug symbols name them (gcmodule.c, Objects/longobject.c)
    Rule(
        INTERPRETER,
        r"(^|/)(Objects|Python|Modules|Parser|Include)/|(^|/)gcmodule\.c$",
        python=False,
    ),
    Rule(BINDING, r"_rust\.(abi3\.so|pyd)|libcrypto", _RUST_OR_PYO3, python=False),
    Rule(NATIVE_CIPHER, r"_rust\.(abi3\.so|pyd)|libcrypto|(^|/)Crypto/.*\.(so|pyd)", python=False),
    Rule(BINDING, r"_cffi_backend|libffi|_ctypes|(^|/)(ffi|unix64|ffi64)\.[cS]$", python=False),
    # the C library's own sources, where debug symbols name them (malloc.c, memmove-*.S)
    Rule(C_LIBRARY, r"(^|/)(malloc|memcpy|memmove|memset|memcmp)[-\w]*\.[cS]$|\.S$", python=False),
    # pycryptodome's modules carry their C sources' names (AESNI.c, raw_ctr.c): py-spy hides
    # CPython's own C frames, so another C source left is a compiled extension's.
    Rule(NATIVE_CIPHER, r"\.(c|cc|cpp|h)$", python=False),
    Rule(
        C_LIBRARY,
        r"(^|/)(libc|libm|ld-linux)[-.\w]*\.so|(^|/)(ucrtbase|msvcrt|vcruntime)",
        python=False,
    ),
    Rule(KERNEL, r"^\[kernel\.kallsyms\]$|(^|/)vmlinux", python=False),
    Rule(OTHER_NATIVE, "", python=False),
)

_FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*)\)$")
_COMPILED = [
    (rule, re.compile(rule.file) if rule.file else None, re.compile(rule.function))
    for rule in RULES
]


def split_frame(frame: str) -> tuple[str, str]:
    """``"AES.encrypt (pyaes/aes.py)"`` -> ``("AES.encrypt", "pyaes/aes.py")``; a bare
    address or name has no file."""
    match = _FRAME.match(frame)
    if match is None:
        return frame, ""
    return match["function"], match["file"].replace("\\", "/")  # Windows paths too


_LENGTH = re.compile(r"\d+")
_ADDRESS = re.compile(r"^0x[0-9a-fA-F]+$")


def rust_names(mangled: str) -> list[str]:
    """The identifiers of a Rust v0-mangled symbol, each written as its length and its text
    (``7backend``): enough to name a frame without a demangler."""
    names, i = [], 0
    while (match := _LENGTH.search(mangled, i)) is not None:
        n, start = int(match[0]), match.end()
        if mangled[start : start + 1] == "_":  # the separator before a name starting with _
            start += 1
        word = mangled[start : start + n]
        if n and len(word) == n and (word[0].isalpha() or word[0] == "_"):
            names.append(word)
            i = start + n
        else:
            i = match.end()
    return names


def path_names(function: str) -> list[str]:
    """The names of a demangled Rust or C++ path without its generic arguments, a qualified
    self type read as its type: ``<a::b::C as T>::f::<g<H>>`` -> ``["a", "b", "C", "f"]``."""
    out, depth, i = [], 0, 0
    while i < len(function):
        c = function[i]
        if c == "<" and (depth or (i and (function[i - 1].isalnum() or function[i - 1] in "_:"))):
            depth += 1  # generic arguments (nested ones too): left out
        elif c == ">" and depth:
            depth -= 1
        elif not depth:
            out.append(c)
        i += 1
    text = re.sub(r" as [^>]*>", ">", "".join(out)).replace("<", "").replace(">", "")
    return [n for n in text.split("::") if n]


def short_frame(frame: str) -> str:
    """A frame as a table prints it: a Rust-mangled name cut to its last three names
    (``ciphers::PyCipherContext::___pymethod_update_into__``), the file to its base name."""
    function, file = split_frame(frame)
    if _ADDRESS.match(function):  # a function without a symbol: its address says nothing
        function = "(a function without a name)"
    elif function.startswith("_R"):
        function = "::".join(rust_names(function)[-3:]) or function
    elif "::" in function:  # a demangled Rust or C++ name
        function = "::".join(path_names(function)[-3:]) or function
    base = file.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{function} ({base})" if base else function


def is_python(file: str) -> bool:
    """Whether a frame's file is Python source (``x.py``, ``<frozen ...>``, ``<string>``)."""
    return file.endswith(".py") or file.startswith("<") or ".py:" in file


def classify(frame: str) -> Share:
    """The class of a sample whose innermost frame is ``frame`` (py-spy's ``name (file)``)."""
    function, file = split_frame(frame)
    python = is_python(file)
    for rule, file_re, function_re in _COMPILED:
        if rule.python is not None and rule.python != python:
            continue
        if file_re is not None and not file_re.search(file):
            continue
        if rule.function and not function_re.search(function):
            continue
        return rule.share
    return OTHER_NATIVE
