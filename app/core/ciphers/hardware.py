"""Switching the CPU's AES instructions off inside one worker process (the hardware ladder).

Each library has its own switch, and both act on this process only:

* OpenSSL (inside ``cryptography``) reads ``OPENSSL_ia32cap`` once, when it is loaded: the mask
  ``~0x200000200000000`` clears the AES-NI (bit 57) and PCLMULQDQ (bit 33) capability bits, so
  AES and GHASH fall back to OpenSSL's constant-time software code. It must be set before
  ``cryptography`` is imported, which is why only a fresh worker calls :func:`switch_off`.
* PyCryptodome takes ``use_aesni=False`` (and ``use_clmul=False`` for GCM) per cipher object;
  its adapter asks :func:`aes_instructions_on` when it makes one.

Nothing outside the worker changes: the variable lives in the worker's own environment.
"""

from __future__ import annotations

import os
import sys

OPENSSL_MASK_VARIABLE = "OPENSSL_ia32cap"
OPENSSL_MASK = "~0x200000200000000"  # AES-NI (bit 57) and PCLMULQDQ (bit 33) off
_SWITCH = "CIPHERBENCH_AES_INSTRUCTIONS"


class TooLate(RuntimeError):
    """``cryptography`` was already loaded in this process: OpenSSL would ignore the mask."""


def switch_off() -> None:
    """Make both libraries use software AES from now on, in this process only. Raises
    :class:`TooLate` when ``cryptography``'s OpenSSL is already loaded."""
    if any(name.startswith("cryptography.hazmat.bindings") for name in sys.modules):
        raise TooLate("the AES instructions can only be switched off in a fresh worker")
    os.environ[OPENSSL_MASK_VARIABLE] = OPENSSL_MASK
    os.environ[_SWITCH] = "off"


def aes_instructions_on() -> bool:
    """False once :func:`switch_off` ran in this process."""
    return os.environ.get(_SWITCH) != "off"
