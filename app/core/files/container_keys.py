"""The keys of a CipherBench file: master key from a password (Argon2id) or a key file, HKDF
subkeys, the header MAC, and the key file itself. The labels and sizes are listed in
:mod:`app.core.files.container_format`.

The reader's Argon2id policy lives here too. The format lets a header ask for up to 1 GiB and 64
passes (about a minute here); a reader pays at most :data:`READER_POLICY` without being asked,
and above it :func:`master_for` raises :class:`ExpensiveKdf` before deriving anything, so the
caller can ask its user. A derivation estimated above :data:`ISOLATE_ABOVE_SECONDS` runs in a
child process that a cancel or Ctrl-C kills within a fraction of a second.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import unicodedata
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.kdf.argon2 import Argon2id
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.core.errors import Cancelled, UserError
from app.core.files.container_format import KEY_SOURCE_KEY_FILE, Argon2Params, Header
from app.core.files.path_errors import PathError
from app.core.files.progress import CancelCheck
from app.core.runtime.children import Child
from app.core.runtime.output_checks import check_output
from app.core.runtime.safe_files import AtomicOutput, read_small_file
from app.core.units import MIB

MASTER_KEY_BYTES = 32
KEY_FILE_FORMAT = "cipherbench-key-file"
KEY_FILE_WARNING = (
    "This key unlocks every CipherBench file encrypted with it. Keep it private and keep a copy: "
    "without it those files cannot be decrypted."
)
_KEY_FILE_MAX_BYTES = 64 * 1024


# --- derivation ------------------------------------------------------------------------------


def subkey(master: bytes, file_salt: bytes, label: str, length: int) -> bytes:
    """``HKDF-SHA256(master, salt=file_salt, info="cipherbench v1 " + label)``."""
    info = b"cipherbench v1 " + label.encode("ascii")
    return HKDF(hashes.SHA256(), length, salt=file_salt, info=info).derive(master)


def header_mac(master: bytes, header_signed: bytes, file_salt: bytes) -> bytes:
    mac = hmac.HMAC(subkey(master, file_salt, "header mac", 32), hashes.SHA256())
    mac.update(header_signed)
    return mac.finalize()


def password_bytes(password: str | bytes) -> bytes:
    # NFC: the same password typed on macOS (often NFD) and elsewhere must give the same key.
    data = (
        unicodedata.normalize("NFC", password).encode("utf-8")
        if isinstance(password, str)
        else bytes(password)
    )
    if not data:
        raise UserError("the password is empty")
    return data


def argon2_master(password: bytes, salt: bytes, params: Argon2Params) -> bytes:
    """The master key from ``password`` (see :func:`password_bytes`), in this thread, not
    interruptible: :func:`derive_master` is the cancellable form."""
    return Argon2id(
        salt=salt,
        length=MASTER_KEY_BYTES,
        iterations=params.iterations,
        lanes=params.lanes,
        memory_cost=params.memory_kib,
    ).derive(password)


def check_key(key: bytes) -> bytes:
    key = bytes(key)
    if len(key) != MASTER_KEY_BYTES:
        raise UserError(f"a key must be {MASTER_KEY_BYTES} bytes ({MASTER_KEY_BYTES * 8} bits)")
    return key


def master_for(
    header: Header,
    password: str | bytes | None,
    key: bytes | None,
    *,
    allow_expensive_kdf: bool = False,
    cancel: CancelCheck | None = None,
) -> bytes:
    """The master key for ``header`` from what the caller gave, or a UserError saying what the
    file needs instead. A password file whose Argon2id cost is above :data:`READER_POLICY`
    raises :class:`ExpensiveKdf` before any work unless ``allow_expensive_kdf``; ``cancel``
    stops the derivation (:class:`Cancelled`)."""
    if header.key_source == KEY_SOURCE_KEY_FILE:
        if key is None:
            if password is not None:
                raise UserError("this file was encrypted with a key file, not a password")
            raise UserError("this file needs its key file")
        return check_key(key)
    if password is None:
        if key is not None:
            raise UserError("this file was encrypted with a password, not a key file")
        raise UserError("this file needs a password")
    assert header.argon2 is not None
    if not allow_expensive_kdf:
        check_kdf_cost(header.argon2)
    return derive_master(password_bytes(password), header.kdf_salt, header.argon2, cancel)


# --- the reader's cost policy ----------------------------------------------------------------

# What this version writes. 48 MiB x 4 passes: the same memory-time product as RFC 9106's second
# recommendation (64 MiB x 3), and small enough that a password-protected 1 GiB encryption stays
# under the 64 MiB peak-memory budget. Lanes let a multi-threaded implementation go faster.
DEFAULT_ARGON2 = Argon2Params(memory_kib=48 * 1024, iterations=4, lanes=4)
# DEFAULT_ARGON2 takes 0.10 s here (benchmarks/bench_kdf.py), but large memory is slower per
# byte: 1 GiB x 64 passes took 48 s here and 62 s in issue 7 (0.14-0.18 s per default-sized
# share), 256 MiB x 6 passes 1.5 s (0.19 s). Estimates scale from 0.2 s: right, or a little long,
# for the costs a reader asks about.
DEFAULT_ARGON2_SECONDS = 0.2


@dataclass(frozen=True)
class KdfPolicy:
    """The largest Argon2id cost a reader pays without asking. Time grows with memory x passes
    (lanes only split the same work), so that product is bounded as well as the memory."""

    max_memory_kib: int
    max_memory_passes: int  # memory_kib x passes
    max_lanes: int

    def allows(self, params: Argon2Params) -> bool:
        return (
            params.memory_kib <= self.max_memory_kib
            and params.memory_kib * params.iterations <= self.max_memory_passes
            and params.lanes <= self.max_lanes
        )


# A few times what this version writes, far below the format's 1 GiB x 64 passes (about a minute
# and a gigabyte here): 256 MiB (5x the memory), 8x the memory-time product (about 1.5 s) and
# twice the lanes (each may be a thread). Files this version writes stay well inside, so only a
# file made with unusual settings through the API, or a hostile one, makes the reader ask.
# Tests swap in tiny values.
READER_POLICY = KdfPolicy(
    max_memory_kib=256 * 1024,
    max_memory_passes=8 * DEFAULT_ARGON2.memory_kib * DEFAULT_ARGON2.iterations,
    max_lanes=2 * DEFAULT_ARGON2.lanes,
)
# OpenSSL's Argon2 cannot be interrupted, so a derivation estimated longer than this runs in a
# child process that a cancel kills. Below it, in this process: a spawn costs about 0.1 s, too
# much to add to every default file (0.1-0.2 s), and a cancel then waits at most this long.
ISOLATE_ABOVE_SECONDS = 0.5


@dataclass(frozen=True)
class KdfCost:
    """An Argon2id cost and its estimated price here (scaled from :data:`DEFAULT_ARGON2`)."""

    memory_kib: int
    passes: int
    lanes: int
    seconds: float
    memory_bytes: int

    def describe(self) -> str:
        """``"about 68 s and 1,024 MiB"``."""
        s = self.seconds
        when = f"{s:.0f} s" if s >= 10 else f"{s:.1f} s"
        return f"about {when} and {self.memory_bytes / MIB:,.0f} MiB"


class ExpensiveKdf(UserError):
    """A file asks for an Argon2id cost above :data:`READER_POLICY`; nothing was derived.
    ``cost`` says what it asks for; decrypting with ``allow_expensive_kdf=True`` pays it."""

    def __init__(self, cost: KdfCost) -> None:
        super().__init__(
            "this file asks for an unusually expensive password derivation: " + cost.describe()
        )
        self.cost = cost


def kdf_cost(params: Argon2Params) -> KdfCost:
    """What deriving with ``params`` should take here: time in proportion to memory x passes."""
    reference = DEFAULT_ARGON2.memory_kib * DEFAULT_ARGON2.iterations
    seconds = DEFAULT_ARGON2_SECONDS * params.memory_kib * params.iterations / reference
    return KdfCost(
        params.memory_kib, params.iterations, params.lanes, seconds, params.memory_kib * 1024
    )


def check_kdf_cost(params: Argon2Params) -> None:
    """Raise :class:`ExpensiveKdf` when ``params`` is above :data:`READER_POLICY`."""
    if not READER_POLICY.allows(params):
        raise ExpensiveKdf(kdf_cost(params))


# --- cancellable derivation ------------------------------------------------------------------

_POLL_SECONDS = 0.05


def derive_master(
    password: bytes, salt: bytes, params: Argon2Params, cancel: CancelCheck | None = None
) -> bytes:
    """:func:`argon2_master`, stopped by ``cancel`` (a callable or ``threading.Event``) or Ctrl-C
    within about 0.1 s once its estimate is above :data:`ISOLATE_ABOVE_SECONDS`: it then runs in
    a child process, which is killed. Raises :class:`Cancelled`."""
    if _cancelled(cancel):
        raise Cancelled("cancelled")
    if kdf_cost(params).seconds <= ISOLATE_ABOVE_SECONDS:
        return argon2_master(password, salt, params)
    return _argon2_in_child(password, salt, params, cancel)


def _cancelled(cancel: CancelCheck | None) -> bool:
    if cancel is None:
        return False
    return cancel.is_set() if isinstance(cancel, threading.Event) else bool(cancel())


def _argon2_in_child(
    password: bytes, salt: bytes, params: Argon2Params, cancel: CancelCheck | None
) -> bytes:
    child = Child(_argon2_child, name="cipherbench-argon2")
    reply: tuple[str, Any] | None = None
    try:
        child.conn.send((password, salt, params))  # through the pipe: never argv or the environment
        while not child.conn.poll(_POLL_SECONDS):
            if _cancelled(cancel):
                raise Cancelled("cancelled")
        try:
            reply = child.conn.recv()
        except EOFError:
            reply = None
        exit_code = child.exit_code() if reply is None else None
    finally:  # also on Ctrl-C, which arrives here as KeyboardInterrupt
        child.stop()  # SIGKILL: Argon2 holds nothing worth a clean exit
    if reply is None:
        raise UserError(
            f"the password derivation stopped unexpectedly (exit code {exit_code}; "
            "not enough memory?)"
        )
    if reply[0] != "key":
        raise UserError(f"the password derivation failed: {reply[1]}")
    master: bytes = reply[1]
    return master


def _argon2_child(conn: Connection) -> None:
    try:
        password, salt, params = conn.recv()
        conn.send(("key", argon2_master(password, salt, params)))
    except MemoryError:
        conn.send(("error", "not enough memory"))
    except BaseException as exc:  # reported to the parent, which raises it as a UserError
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


# --- key files -------------------------------------------------------------------------------


class RawKeyGiven(PathError):
    """The key of a raw export (``path``) was given where a CipherBench key file belongs."""

    MESSAGE = "{path} is the key of a raw export"


def new_key() -> bytes:
    """A fresh random 256-bit key for a key file."""
    return secrets.token_bytes(MASTER_KEY_BYTES)


def write_key_file(path: str | os.PathLike[str], key: bytes, *, force: bool = False) -> None:
    """Write ``key`` (32 bytes) as a small JSON key file with mode 0600. Refuses to replace an
    existing file unless ``force`` (replacing a key file can make files undecryptable)."""
    key = check_key(key)
    target = Path(path)
    check_output(
        target,
        force=force,
        role="the key file",
        exists=f"{target} already exists; a key file is never replaced",
    )
    text = json.dumps(
        {
            "format": KEY_FILE_FORMAT,
            "version": 1,
            "key_hex": key.hex(),
            "warning": KEY_FILE_WARNING,
        },
        indent=2,
    )
    with AtomicOutput(target, force=force, mode=0o600) as out:
        out.write((text + "\n").encode("ascii"))
        out.commit()


def read_key_file(path: str | os.PathLike[str]) -> bytes:
    """The 32-byte key in a key file written by :func:`write_key_file`."""
    source = Path(path)
    text = read_small_file(
        source,
        _KEY_FILE_MAX_BYTES,
        not_regular=f"the key file {source} is not a regular file",
        too_large=f"{source} is not a CipherBench key file (too large)",
    )
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise UserError(f"{source} is not a CipherBench key file (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != KEY_FILE_FORMAT:
        if isinstance(data, dict) and data.get("format") == "cipherbench-raw-key":
            raise RawKeyGiven(str(source))
        raise UserError(f"{source} is not a CipherBench key file")
    if data.get("version") != 1:
        raise UserError(f"{source} is a key file of an unknown version")
    try:
        key = bytes.fromhex(str(data.get("key_hex", "")))
    except ValueError:
        key = b""
    if len(key) != MASTER_KEY_BYTES:
        raise UserError(f"the key in {source} is damaged (it must be 64 hex digits)")
    return key
