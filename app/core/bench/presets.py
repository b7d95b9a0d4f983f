"""Ready-made selections that reproduce the published studies in shared/seeds (one per seed).

Each preset is a list of (cipher id, library) pairs; ``library=None`` means the id's default
libraries, the compiled ones that offer it (pure-Python pyaes runs only where a preset names it,
as seed 003's does). The CLI takes them with ``--preset NAME``, the window as one-click buttons.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.ciphers.registry import CipherSpec, default_libraries_for, lookup
from app.core.errors import UserError
from app.core.text import unknown_choice


@dataclass(frozen=True)
class Preset:
    name: str  # short, for --preset
    title: str  # for the window
    description: str
    choices: tuple[tuple[str, str | None], ...]
    key_bits: int | None = None  # for variable-key ciphers (Blowfish 256 in the Blowfish study)

    def specs(self) -> list[CipherSpec]:
        out: list[CipherSpec] = []
        for cipher_id, library in self.choices:
            for lib in [library] if library else default_libraries_for(cipher_id):
                spec = lookup(cipher_id, lib)
                if (
                    self.key_bits
                    and spec.key_bits_allowed
                    and self.key_bits in spec.key_bits_allowed
                ):
                    spec = spec.with_key_bits(self.key_bits)
                out.append(spec)
        return out


PRESETS: tuple[Preset, ...] = (
    Preset(
        "aes-vs-blowfish",
        "AES vs Blowfish, ECB and CTR, 256-bit",
        "Seed 002: AES-256 and Blowfish-256 in ECB and CTR (PyCryptodome).",
        (
            ("aes-256-ecb", "pycryptodome"),
            ("aes-256-ctr", "pycryptodome"),
            ("bf-ecb", "pycryptodome"),
            ("bf-ctr", "pycryptodome"),
        ),
        key_bits=256,
    ),
    Preset(
        "aes-key-sizes",
        "AES key sizes, CBC",
        "Seed 000: AES-128/192/256 in CBC with PKCS#7 (PyCryptodome).",
        (
            ("aes-128-cbc", "pycryptodome"),
            ("aes-192-cbc", "pycryptodome"),
            ("aes-256-cbc", "pycryptodome"),
        ),
    ),
    Preset(
        "gcm-vs-chacha",
        "AES-GCM vs ChaCha20-Poly1305",
        "Seed 004: AES-256-GCM and ChaCha20-Poly1305 (cryptography); use stream mode, 1 MB chunks.",
        (("aes-256-gcm", "cryptography"), ("chacha20-poly1305", "cryptography")),
    ),
    Preset(
        "classic-ciphers",
        "DES, 3DES, AES, RC4",
        "Seed 001: DES, 3DES, AES-256 and RC4 (CBC where the cipher has modes), both libraries.",
        (
            ("des-cbc", "pycryptodome"),
            ("des-ede3-cbc", None),
            ("aes-256-cbc", "cryptography"),
            ("aes-256-cbc", "pycryptodome"),
            ("rc4", None),
        ),
    ),
    Preset(
        "pure-python",
        "pure Python vs compiled, AES-CTR",
        "Seed 003: pyaes against cryptography and PyCryptodome, AES-128-CTR (keep inputs small).",
        (
            ("aes-128-ctr", "pyaes"),
            ("aes-128-ctr", "cryptography"),
            ("aes-128-ctr", "pycryptodome"),
        ),
    ),
)


# Names a preset had before it took its study's name (each selection is named as its study is).
ALIASES = {"des-3des-aes-rc4": "classic-ciphers"}


def preset(name: str) -> Preset:
    name = ALIASES.get(name, name)
    for p in PRESETS:
        if p.name == name:
            return p
    raise UserError(unknown_choice("preset", name, [p.name for p in PRESETS]))
