"""Switching the CPU's AES instructions off inside one worker process (the hardware ladder).

Each library has its own switch, and both act on this process only:

* OpenSSL (inside ``cryptography``) reads its capability variable once, when it is loaded. On
  x86 ``OPENSSL_ia32cap``: the mask ``~0x200000200000000`` clears the AES-NI (bit 57) and
  PCLMULQDQ (bit 33) bits. On Arm ``OPENSSL_armcap``, which replaces the detected vector: ``1``
  keeps NEON (``ARMV7_NEON``) and drops the ARMv8 AES, PMULL and SHA extensions. Either way AES
  and GHASH fall back to OpenSSL's constant-time software code. It must be set before
  ``cryptography`` is imported, which is why only a fresh worker calls :func:`switch_off`.
* PyCryptodome takes ``use_aesni=False`` (and ``use_clmul=False`` for GCM) per cipher object;
  its adapter asks :func:`aes_instructions_on` when it makes one.

Nothing outside the worker changes: the variable lives in the worker's own environment.
"""

from __future__ import annotations

import os
import platform
import sys

OPENSSL_MASK_VARIABLE = "OPENSSL_ia32cap"
OPENSSL_MASK = "~0x200000200000000"  # AES-NI (bit 57) and PCLMULQDQ (bit 33) off
OPENSSL_ARM_VARIABLE = "OPENSSL_armcap"
OPENSSL_ARM_VECTOR = "1"  # ARMV7_NEON only: no ARMV8_AES (1 << 2) nor ARMV8_PMULL (1 << 5)
ARM_MACHINES = ("aarch64", "arm64", "armv7l", "armv8l")
_SWITCH = "CIPHERBENCH_AES_INSTRUCTIONS"


class TooLate(RuntimeError):
    """``cryptography`` was already loaded in this process: OpenSSL would ignore the mask."""


def switch_off() -> None:
    """Make both libraries use software AES from now on, in this process only. Raises
    :class:`TooLate` when ``cryptography``'s OpenSSL is already loaded."""
    if any(name.startswith("cryptography.hazmat.bindings") for name in sys.modules):
        raise TooLate("the AES instructions can only be switched off in a fresh worker")
    variable, value = openssl_switch()
    os.environ[variable] = value
    os.environ[_SWITCH] = "off"


def openssl_switch(machine: str | None = None) -> tuple[str, str]:
    """The variable and value that take OpenSSL's AES instructions away on ``machine``
    (default: this one's, as ``platform.machine()`` names it)."""
    name = (machine or platform.machine()).lower()
    if name in ARM_MACHINES:
        return OPENSSL_ARM_VARIABLE, OPENSSL_ARM_VECTOR
    return OPENSSL_MASK_VARIABLE, OPENSSL_MASK


def aes_instructions_on() -> bool:
    """False once :func:`switch_off` ran in this process."""
    return os.environ.get(_SWITCH) != "off"
