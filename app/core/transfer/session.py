"""A transfer session: several ciphers, one after the other, on one input, into one
:class:`~app.core.transfer.results.TransferRun` (what ``transfer`` and the Transfer window run).

    with transfer_input(path) as source:             # or transfer_input(None, size_bytes=...)
        run = run_transfers(source, ["aes-256-gcm", "none"], TransferOptions(),
                            cancel=event, on_progress=..., on_result=..., on_failure=...)

A cipher whose transfer fails (authentication, a dead or silent peer, an unknown cipher, the
file gone) becomes a :class:`NamedFailure` and the session goes on with the next one.
Setting ``cancel`` stops the running transfer (both of its processes are killed) and ends the
session with a run marked ``cancelled`` holding the ciphers that finished. ``KeyboardInterrupt``
(Ctrl-C, SIGTERM) is not caught: it stops the transfer and propagates, so the command line can
write nothing and exit 130.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

from app import __version__
from app.core.bench.inputs import cleanup_generated, generated_input, inspect_file
from app.core.bench.jobs import InputSpec
from app.core.bench.run_info import Environment
from app.core.errors import Cancelled, UserError
from app.core.runtime.envelope import NamedFailure
from app.core.transfer import runner  # looked up per call: tests replace runner.run_transfer
from app.core.transfer.results import TransferResult, TransferRun
from app.core.transfer.runner import TransferFailed, TransferOptions

TRANSFER = "transfer"
GENERATING = "generating the input"
READING_MACHINE = "reading the machine"


@dataclass(frozen=True)
class TransferProgress:
    """Where the session stands: cipher ``index`` of ``count``; its ``done`` runs of ``total``
    (warm-ups included). ``phase`` is :data:`TRANSFER`, :data:`GENERATING` or
    :data:`READING_MACHINE`."""

    cipher: str
    index: int
    count: int
    done: int
    total: int
    phase: str = ""

    @property
    def fraction(self) -> float:
        part = self.done / self.total if self.total else 0.0
        return min(1.0, (self.index + part) / max(1, self.count))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@contextmanager
def transfer_input(
    path: str | None, *, size_bytes: int = 0, label: str | None = None
) -> Iterator[InputSpec]:
    """The file at ``path`` (``UserError`` if it is missing, a folder, unreadable or empty), or
    ``size_bytes`` of random data in a scratch file labelled ``label``, deleted on leaving."""
    source = inspect_file(path) if path is not None else generated_input(size_bytes, label=label)
    try:
        yield source
    finally:
        cleanup_generated(source)


def run_transfers(
    source: InputSpec,
    ciphers: Sequence[str],
    options: TransferOptions,
    *,
    cancel: threading.Event | None = None,
    on_progress: Callable[[TransferProgress], None] | None = None,
    on_result: Callable[[TransferResult], None] | None = None,
    on_failure: Callable[[NamedFailure], None] | None = None,
    environment: bool = True,
) -> TransferRun:
    """Transfer ``source`` with each of ``ciphers`` in turn and return the whole run.

    ``on_progress`` gets a :class:`TransferProgress` when a cipher starts (``done == 0``), after
    each of its runs, and once (phase :data:`READING_MACHINE`) before the environment is read;
    callers throttle it themselves. ``on_result`` / ``on_failure`` get each cipher's result or
    failure as it comes. ``environment=False`` skips reading the machine (an empty
    environment). Raises ``UserError`` for bad options before any transfer starts."""
    options.check()
    started, count, total = _now(), len(ciphers), options.warmup + options.repeat
    results: list[TransferResult] = []
    failures: list[NamedFailure] = []
    cancelled = False

    def progress(p: TransferProgress) -> None:
        if on_progress is not None:
            on_progress(p)

    for index, cipher in enumerate(ciphers):
        if cancel is not None and cancel.is_set():
            cancelled = True
            break
        progress(TransferProgress(cipher, index, count, 0, total, TRANSFER))  # may cancel
        try:
            outcome = _one_cipher(source, cipher, (index, count), options, cancel, progress)
        except Cancelled:
            cancelled = True
            break
        if isinstance(outcome, NamedFailure):
            failures.append(outcome)
            if on_failure is not None:
                on_failure(outcome)
        else:
            results.append(outcome)
            if on_result is not None:
                on_result(outcome)
    env = _machine(progress) if environment else Environment()
    return TransferRun(
        input_label=source.label,
        input_bytes=source.size_bytes,
        options=asdict(options),
        results=tuple(results),
        failures=tuple(failures),
        environment=env,
        started_at=started,
        finished_at=_now(),
        cipherbench_version=__version__,
        cancelled=cancelled,
    )


def _one_cipher(
    source: InputSpec,
    cipher: str,
    place: tuple[int, int],
    options: TransferOptions,
    cancel: threading.Event | None,
    progress: Callable[[TransferProgress], None],
) -> TransferResult | NamedFailure:
    """Every run of ``cipher`` (the ``place[0]``-th of ``place[1]``), with the progress after
    each; its failure as a :class:`NamedFailure`. Raises :class:`Cancelled`."""
    index, count = place

    def on_run(done: int, runs: int) -> None:
        progress(TransferProgress(cipher, index, count, done, runs, TRANSFER))

    try:
        return runner.run_transfer(
            source.path, cipher, options, input_label=source.label, cancel=cancel, on_run=on_run
        )
    except (TransferFailed, UserError, OSError) as exc:
        return NamedFailure(cipher, _reason(exc, source))


def _machine(progress: Callable[[TransferProgress], None]) -> Environment:
    """The machine's description, said first (reading it takes a moment)."""
    from app.core.bench.environment import capture_environment

    progress(TransferProgress("", 1, 1, 1, 1, READING_MACHINE))
    return Environment(capture_environment())


def _reason(exc: BaseException, source: InputSpec) -> str:
    if isinstance(exc, OSError):  # the file went away between the start and this cipher
        return f"cannot read {source.label}: {exc.strerror or exc}"
    return str(exc)
