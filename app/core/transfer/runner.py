"""Supervising a transfer: spawn the receiver and the sender, run warm-ups and repetitions,
collect what each end measured, and stop both whatever happens.

Every socket operation in the two ends has a timeout, so a silent or dead peer ends a run with
a message instead of a hang; this side watches both processes and their pipes, so a killed end
is reported as such ("the receiver process was stopped by SIGKILL"), and it kills both in a
``finally`` (error, cancel, Ctrl-C). They also die with this process (Linux), as the
benchmark's workers do.
"""

from __future__ import annotations

import os
import secrets
import statistics
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from multiprocessing.connection import wait
from typing import Any

from app.core.bench.stats import stability_warnings, summarize
from app.core.errors import Cancelled, UserError
from app.core.files.container_format import check_chunk_bytes
from app.core.runtime.children import Child, signal_name
from app.core.transfer.endpoints import EndReport, receiver_main, sender_main
from app.core.transfer.framing import COUNTS, MASTER_KEY_BYTES, PLAINTEXT, transfer_spec
from app.core.transfer.load_series import LoadSampler
from app.core.transfer.results import EndSample, RunSample, TransferResult
from app.core.units import MIB

_POLL_S = 0.05
# A spawned interpreter importing the engine takes well under a second; a loaded machine more.
START_TIMEOUT_S = 60.0
MAX_REPEAT = 1000
MAX_WARMUP = 100

# A test's man-in-the-middle: given the receiver's port, the port the sender connects to.
Relay = Callable[[int], int]


class TransferFailed(Exception):
    """A transfer did not complete; the message says why in one sentence."""


@dataclass(frozen=True)
class TransferOptions:
    """``timeout_s`` bounds every socket wait of either end (not the whole transfer)."""

    chunk_bytes: int = MIB
    repeat: int = 5
    warmup: int = 1
    timeout_s: float = 10.0

    def check(self) -> None:
        check_chunk_bytes(self.chunk_bytes)
        if not 1 <= self.repeat <= MAX_REPEAT:
            raise UserError(f"the repetitions must be 1..{MAX_REPEAT}, not {self.repeat}")
        if not 0 <= self.warmup <= MAX_WARMUP:
            raise UserError(f"the warm-up runs must be 0..{MAX_WARMUP}, not {self.warmup}")
        if not self.timeout_s > 0:
            raise UserError("the timeout must be positive")


class _End:
    """One spawned end (:class:`~app.core.runtime.children.Child`) and its role."""

    def __init__(self, role: str, target: Callable[..., None]) -> None:
        self.role = role
        self.child = Child(target, name=f"cipherbench-transfer-{role}")
        self.conn = self.child.conn

    def death(self) -> str:
        """Why this end ended without a word, read once the kernel has reaped it."""
        code = self.child.exit_code()
        name = signal_name(code)
        if name is not None:
            return f"the {self.role} process was stopped by {name} during the transfer"
        if code is None:
            return f"the {self.role} process stopped answering"
        return f"the {self.role} process stopped unexpectedly (exit code {code})"

    def stop(self) -> None:
        self.child.stop()


def _wait(
    ends: list[_End], deadline_s: float, cancel: threading.Event | None
) -> dict[str, tuple[Any, ...] | None]:
    """One reply from each end (None for an end that died without one). Once an end failed or
    died the other gets ``deadline_s`` more: its own socket timeouts end it before that."""
    replies: dict[str, tuple[Any, ...] | None] = {}
    give_up: float | None = None
    while len(replies) < len(ends):
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        waiting = [end for end in ends if end.role not in replies]
        ready = wait([end.conn for end in waiting], _POLL_S)
        for end in waiting:
            if end.conn in ready:
                try:
                    replies[end.role] = end.conn.recv()
                except (EOFError, OSError):
                    replies[end.role] = None
            elif not end.child.is_alive() and not end.conn.poll():
                replies[end.role] = None
            if end.role in replies and (replies[end.role] or ("failed",))[0] != "done":
                give_up = give_up or time.monotonic() + deadline_s
        if give_up is not None and time.monotonic() > give_up:
            break
    return replies


def _reason(ends: list[_End], replies: dict[str, tuple[Any, ...] | None]) -> str | None:
    """Why a run failed, the cause before its consequences: an end that died, then the
    sender's input (it shrank: the receiver then sees a truncated stream), then an
    authentication failure, then the sender's error, then the receiver's. None: it worked."""
    for end in ends:
        if end.role in replies and replies[end.role] is None:
            return end.death()
    failures = {role: r for role, r in replies.items() if r is not None and r[0] == "failed"}
    if "sender" in failures and failures["sender"][1] == "input":
        return f"{failures['sender'][2]} (reported by the sender)"
    for role in ("receiver", "sender"):
        if role in failures and failures[role][1] == "auth":
            return f"{failures[role][2]} (reported by the {role})"
    for role in ("sender", "receiver"):
        if role in failures:
            return f"{failures[role][2]} (reported by the {role})"
    if len(replies) < len(ends):
        return "a peer did not finish in time"
    return None


def transfer(
    path: str | os.PathLike[str],
    cipher_id: str,
    options: TransferOptions | None = None,
    *,
    input_label: str | None = None,
    cancel: threading.Event | None = None,
    relay: Relay | None = None,
) -> Generator[tuple[int, int], None, TransferResult]:
    """Transfer the file at ``path`` over loopback ``options.warmup + options.repeat`` times
    with ``cipher_id`` (an AEAD id, or ``"none"`` for the plaintext baseline), each run under a
    fresh random key: ``(done, total)`` after each run, then (``yield from``'s value) the
    measurements.

    Raises :class:`UserError` for bad options or ciphers, :class:`TransferFailed` when a run
    fails (authentication, a dead or silent peer: the message says which), :class:`Cancelled`
    when ``cancel`` is set. Both processes are gone when it returns, raises or is closed."""
    options = options or TransferOptions()
    options.check()
    spec = transfer_spec(cipher_id)
    cipher_id = spec.id if spec is not None else PLAINTEXT
    path = os.fspath(path)
    size = os.stat(path).st_size
    total = options.warmup + options.repeat
    samples: list[RunSample] = []
    chunks = max(1, -(-size // options.chunk_bytes))
    ends: list[_End] = []
    try:
        port = _start(ends, cancel)
        target = relay(port) if relay is not None else port
        job = (target, path, cipher_id, size)
        for done in range(total):
            samples.append(_one_run(ends, job, options, cancel, done + 1))
            yield done + 1, total
    finally:
        for end in ends:
            end.stop()
    warmups, runs = samples[: options.warmup], samples[options.warmup :]
    timing = summarize([r.total_seconds for r in runs], size, [r.total_seconds for r in warmups])
    warnings = stability_warnings(timing, "transfer") + busy_warnings(runs)
    return TransferResult(
        cipher_id=cipher_id,
        library=spec.library if spec is not None else None,
        input_label=input_label or os.path.basename(path),
        input_bytes=size,
        chunk_bytes=options.chunk_bytes,
        chunks=chunks,
        runs=tuple(runs),
        warmups=tuple(warmups),
        timing=timing,
        warnings=tuple(warnings),
    )


def _start(ends: list[_End], cancel: threading.Event | None) -> int:
    """Start the receiver and the sender (appended to ``ends``, which stops them); the port
    the receiver listens on."""
    ends.append(_End("receiver", receiver_main))
    ends.append(_End("sender", sender_main))
    ready = _wait(ends, START_TIMEOUT_S, cancel)
    reason = _reason(ends, ready)
    if reason is not None:
        raise TransferFailed(reason)
    port: int = ready["receiver"][1]  # type: ignore[index]
    return port


def _one_run(
    ends: list[_End],
    job: tuple[int, str, str, int],
    options: TransferOptions,
    cancel: threading.Event | None,
    number: int,
) -> RunSample:
    """Run ``number`` of the transfer ``job`` (target port, path, cipher, the file's size at
    the start) under a fresh key, both ends sampled every 50 ms; checked."""
    receiver, sender = ends
    target, path, cipher_id, size = job
    key = secrets.token_bytes(MASTER_KEY_BYTES)  # through the pipes only
    receiver.conn.send(("run", cipher_id, key, options.timeout_s))
    sender.conn.send(("run", target, path, cipher_id, key, options.chunk_bytes, options.timeout_s))
    del key
    with LoadSampler({"sender": sender.child.pid, "receiver": receiver.child.pid}) as load:
        replies = _wait(ends, options.timeout_s + 5.0, cancel)
    reason = _reason(ends, replies)
    if reason is not None:
        raise TransferFailed(reason)
    sample = _sample(replies["sender"][1], replies["receiver"][1])  # type: ignore[index]
    if not sample.verified:
        raise TransferFailed(
            f"run {number}: what arrived is not what was sent (the digests of the two ends differ)"
        )
    # The sender sends the size it finds at each run, the throughput is computed from the size
    # found at the start: a file that changed in between would give false numbers.
    received: EndReport = replies["receiver"][1]  # type: ignore[index]
    data_bytes, _ = COUNTS.unpack_from(received.digest)
    if data_bytes != size:
        raise TransferFailed(
            f"run {number}: the input file changed size since the start "
            f"({size} bytes then, {data_bytes} sent)"
        )
    return replace(sample, series=tuple(load.points))


BUSY_OTHERS_PERCENT = 25.0  # other processes' CPU, in % of one core, that makes a busy run


def busy_warnings(runs: list[RunSample]) -> list[str]:
    """A warning when other processes took :data:`BUSY_OTHERS_PERCENT` of a core or more
    during the runs (the median over runs of each run's mean): the two ends share the CPUs
    with them, and a transfer needs about two cores."""
    means = [statistics.fmean(p.others_cpu_percent for p in r.series) for r in runs if r.series]
    if not means or (busy := statistics.median(means)) < BUSY_OTHERS_PERCENT:
        return []
    return [
        f"transfer: other programs used {busy:.0f} % of a CPU core while it ran (the median "
        "of the runs, the two ends' own CPU apart): the machine was busy, its times may be "
        "slower than on a quiet one (close other programs, or run it again)"
    ]


def _sample(sent: EndReport, got: EndReport) -> RunSample:
    def end(r: EndReport) -> EndSample:
        return EndSample(
            wall_seconds=(r.end_ns - r.start_ns) / 1e9,
            cpu_seconds=r.cpu_seconds,
            baseline_rss_bytes=r.baseline_rss_bytes,
            peak_rss_bytes=r.peak_rss_bytes,
        )

    # Both ends read the same system-wide monotonic clock (perf_counter_ns).
    total_ns = got.end_ns - sent.start_ns
    verified = sent.digest == got.digest == sent.peer_digest
    # The sender reads its clock after its last send returns: descheduled in between (a loaded
    # machine), it reads later than the receiver's end. Its last byte was handed over before it
    # arrived, so the sender's time is at most the total.
    sent_ns = min(sent.sent_ns - sent.start_ns, total_ns)
    sent_s = max(sent_ns, 1) / 1e9 if sent.sent_ns else 0.0
    return RunSample(max(total_ns, 1) / 1e9, end(sent), end(got), verified, sent_s)
