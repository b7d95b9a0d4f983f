"""The two processes of a transfer: a receiver listening on 127.0.0.1 and a sender.

Each is spawned once per cipher and input by :mod:`app.core.transfer.runner` and then serves
every run (warm-ups and repetitions) the runner asks for through its pipe, where the key of
each run arrives too (never through the socket, never argv or the environment). Both ignore
Ctrl-C and SIGHUP (the supervisor decides what stops) and die with their supervisor (Linux),
like the benchmark's workers. Each reports, per run, what it measured of itself: CPU time over
its part of the transfer and the kernel's high-water mark of its resident memory above its
baseline, taken before its first run's buffers existed (:class:`Baseline`,
:mod:`app.core.bench.memory_probe`).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

from app.core.bench.memory_probe import current_rss_bytes, peak_rss_bytes, reset_peak
from app.core.ciphers.adapters import get_adapter
from app.core.errors import AuthenticationError, UserError
from app.core.runtime.safe_files import open_input, read_exact
from app.core.transfer.framing import InputError, TransferError, transfer_spec
from app.core.transfer.receiving import receive
from app.core.transfer.sending import send_file

LOOPBACK = "127.0.0.1"


@dataclass(frozen=True)
class EndReport:
    """One end, one run: its timestamps (``perf_counter_ns``), CPU time and memory."""

    start_ns: int
    end_ns: int
    cpu_seconds: float
    baseline_rss_bytes: int
    peak_rss_bytes: int
    digest: bytes  # this end's stream digest (framing.StreamDigest) of what it sent or rebuilt
    peer_digest: bytes  # the sender: the digest the receiver sent back; the receiver: b""
    sent_ns: int = 0  # the sender: its last byte handed to the kernel; the receiver: 0

    @classmethod
    def ending(
        cls,
        start_ns: int,
        end_ns: int,
        cpu_seconds: float,
        baseline_rss_bytes: int,
        digest: bytes,
        peer_digest: bytes = b"",
        sent_ns: int = 0,
    ) -> EndReport:
        """The report of a run that ends now: the memory peak is read here (never below the
        baseline taken before the run)."""
        peak = max(peak_rss_bytes(), baseline_rss_bytes)
        return cls(
            start_ns, end_ns, cpu_seconds, baseline_rss_bytes, peak, digest, peer_digest, sent_ns
        )


def _failure(exc: BaseException) -> tuple[str, str]:
    """``(kind, message)`` for the supervisor: "input" (the sender's input failed it) and "auth"
    failures outrank the rest."""
    if isinstance(exc, InputError):
        return "input", str(exc)
    if isinstance(exc, AuthenticationError):
        return "auth", str(exc)
    if isinstance(exc, UserError | TransferError):
        return "error", str(exc)
    if isinstance(exc, TimeoutError):
        return "error", "the peer did not answer in time"
    if isinstance(exc, OSError):
        return "error", f"network error: {exc.strerror or exc}"
    if isinstance(exc, MemoryError):
        return "error", "not enough memory for the transfer buffers"
    return "error", f"{type(exc).__name__}: {exc}"


def _reply(conn: Connection, message: tuple[Any, ...]) -> None:
    try:
        conn.send(message)
    except OSError:  # the supervisor is gone: nobody to tell
        os._exit(1)


def receiver_main(conn: Connection) -> None:
    """Listen on 127.0.0.1 (ephemeral port, reported as ``("ready", port)``), then serve
    ``("run", cipher_id, key, timeout_s)`` until ``("stop",)`` or the pipe closes."""
    try:
        listener = socket.create_server((LOOPBACK, 0), backlog=1)
    except OSError as exc:
        _reply(conn, ("failed", "error", f"cannot listen on {LOOPBACK}: {exc.strerror or exc}"))
        return
    _reply(conn, ("ready", listener.getsockname()[1]))
    with listener:
        _serve(conn, partial(_receive_one, listener, baseline=Baseline()))


def _serve(conn: Connection, run: Callable[..., EndReport]) -> None:
    """Answer each ``("run", *args)`` with ``("done", run(*args))`` or ``("failed", kind,
    message)``, until ``("stop",)`` or the pipe closes."""
    while True:
        try:
            command = conn.recv()
        except (EOFError, OSError):
            return
        if command[0] != "run":
            return
        try:
            _reply(conn, ("done", run(*command[1:])))
        except BaseException as exc:  # reported; the supervisor decides
            _reply(conn, ("failed", *_failure(exc)))


class Baseline:
    """An end's memory before its buffers exist: read at its first run, once the cipher's
    library is loaded (its import is not the transfer's), and kept for the later runs of the
    process, so memory a run holds on to afterwards (freed buffers the allocator keeps) still
    counts as the transfer's in every run."""

    def __init__(self) -> None:
        self.rss_bytes: int | None = None

    def read(self, cipher_id: str) -> int:
        if self.rss_bytes is None:
            spec = transfer_spec(cipher_id)
            if spec is not None:
                get_adapter(spec.library)
            self.rss_bytes = current_rss_bytes()
        return self.rss_bytes


def _receive_one(
    listener: socket.socket, cipher_id: str, key: bytes, timeout_s: float, baseline: Baseline
) -> EndReport:
    base = baseline.read(cipher_id)
    reset_peak()
    listener.settimeout(timeout_s)
    try:
        sock, _ = listener.accept()
    except TimeoutError:
        raise TransferError(f"no sender connected within {timeout_s:g} s") from None
    with sock:
        sock.settimeout(timeout_s)
        got = receive(sock, cipher_id, key, timeout_s)
    return EndReport.ending(got.first_byte_ns, got.verified_ns, got.cpu_seconds, base, got.digest)


def sender_main(conn: Connection) -> None:
    """Serve ``("run", port, path, cipher_id, key, chunk_bytes, timeout_s)`` until ``("stop",)``
    or the pipe closes: send the file at ``path`` to 127.0.0.1:``port``."""
    warmed: set[tuple[str, int, int]] = set()
    _reply(conn, ("ready", os.getpid()))
    _serve(conn, partial(_send_one, warmed=warmed, baseline=Baseline()))


def _warm_input(path: str, warmed: set[tuple[str, int, int]]) -> int:
    """Read the input once, before any timing, so every run reads it from the page cache; its
    size."""
    try:
        st = os.stat(path)
        key = (path, st.st_size, st.st_mtime_ns)
        if key not in warmed:
            view = memoryview(bytearray(1 << 20))
            with open_input(path) as fin:
                while read_exact(fin, view):
                    pass
            warmed.add(key)
    except OSError as exc:  # gone or unreadable since the last run: not a network error
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return st.st_size


def _send_one(
    port: int,
    path: str,
    cipher_id: str,
    key: bytes,
    chunk_bytes: int,
    timeout_s: float,
    warmed: set[tuple[str, int, int]],
    baseline: Baseline,
) -> EndReport:
    spec = transfer_spec(cipher_id)
    base = baseline.read(cipher_id)  # before the input's read buffer too
    size = _warm_input(path, warmed)
    reset_peak()
    with open_input(path) as fin:
        try:
            sock = socket.create_connection((LOOPBACK, port), timeout=timeout_s)
        except OSError as exc:
            raise TransferError(
                f"cannot connect to the receiver on {LOOPBACK}:{port}: {exc.strerror or exc}"
            ) from None
        with sock:
            sent = send_file(sock, fin, size, spec, key, chunk_bytes, timeout_s)
    return EndReport.ending(
        sent.first_byte_ns,
        sent.acknowledged_ns,
        sent.cpu_seconds,
        base,
        sent.digest,
        sent.receiver_digest,
        sent.last_sent_ns,
    )
