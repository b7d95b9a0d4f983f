"""Every cipher library CipherBench drives, one row each: all it knows about a library.

A row says what the user types (``--library``), which installed distribution holds it (its
version in results, its licence in About), which adapter speaks to it, whether it is compiled
(the window and ``bench`` select the compiled ones by default; pure Python is the slow
reference, chosen on purpose), and which of its modules a frozen bundle must carry because
they are imported lazily. The order is the preference when none is named: OpenSSL first
(fastest), pure Python last.

Adding a library is one row here, its adapter module, and its cipher rows in ``registry.py``.
This module imports nothing of CipherBench, so the PyInstaller spec reads it by path.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Library:
    name: str  # as CipherSpec.library and the command line's --library
    distribution: str  # the installed distribution (importlib.metadata)
    adapter: tuple[str, str]  # (module, class) in app.core.ciphers.adapters
    compiled: bool  # False: pure Python, the interpreter-cost reference
    bundle_imports: tuple[str, ...]  # modules the adapter imports lazily


ROWS: tuple[Library, ...] = (
    Library(
        "cryptography",
        "cryptography",
        ("app.core.ciphers.adapters.cryptography_lib", "CryptographyAdapter"),
        compiled=True,
        bundle_imports=(
            "cryptography.hazmat.primitives.ciphers",
            "cryptography.hazmat.primitives.ciphers.aead",
            "cryptography.hazmat.primitives.padding",
            "cryptography.hazmat.decrepit.ciphers.algorithms",
            "cryptography.hazmat.decrepit.ciphers.modes",
            "cryptography.hazmat.backends.openssl.backend",
            "cryptography.hazmat.bindings._rust",
        ),
    ),
    Library(
        "pycryptodome",
        "pycryptodome",
        ("app.core.ciphers.adapters.pycryptodome_lib", "PycryptodomeAdapter"),
        compiled=True,
        bundle_imports=(
            "Crypto.Cipher.AES",
            "Crypto.Cipher.ARC4",
            "Crypto.Cipher.DES",
            "Crypto.Cipher.DES3",
            "Crypto.Cipher.Blowfish",
            "Crypto.Cipher.ChaCha20",
            "Crypto.Cipher.ChaCha20_Poly1305",
            "Crypto.Util.Padding",
            "Crypto.Util._cpu_features",
        ),
    ),
    Library(
        "pyaes",
        "pyaes",
        ("app.core.ciphers.adapters.pyaes_lib", "PyaesAdapter"),
        compiled=False,
        bundle_imports=("pyaes",),
    ),
)

LIBRARIES: tuple[str, ...] = tuple(row.name for row in ROWS)  # in order of preference
COMPILED: tuple[str, ...] = tuple(row.name for row in ROWS if row.compiled)
BY_NAME: dict[str, Library] = {row.name: row for row in ROWS}
